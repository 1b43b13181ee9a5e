/**
 * For tests that need a Docker engine. Without one they skip with the reason printed,
 * except under REQUIRE_DOCKER=1 (CI), where a missing engine or image is a failure.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const LOCAL_SANDBOX_IMAGE = 'agent-workbench/sandbox:local';

export interface DockerProbe {
  available: boolean;
  reason: string | null;
  serverVersion?: string;
}

export async function probeDocker(image = LOCAL_SANDBOX_IMAGE): Promise<DockerProbe> {
  let serverVersion: string;
  try {
    const { stdout } = await run('docker', ['version', '--format', '{{.Server.Version}}'], {
      timeout: 10_000,
    });
    serverVersion = stdout.trim();
  } catch (error) {
    return unavailable(
      `no Docker engine answers (${firstLine(error)}); run scripts/setup-system.sh`,
    );
  }
  try {
    await run('docker', ['image', 'inspect', image], { timeout: 10_000 });
  } catch {
    return unavailable(
      `the sandbox image ${image} is missing; run scripts/setup-system.sh to build it`,
    );
  }
  return { available: true, reason: null, serverVersion };
}

function unavailable(reason: string): DockerProbe {
  if (process.env['REQUIRE_DOCKER'] === '1') {
    throw new Error(`REQUIRE_DOCKER=1 but ${reason}`);
  }
  console.warn(`[tests] Docker tests skipped: ${reason}`);
  return { available: false, reason };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
