/**
 * A real runtime for terminal tests: the scripted model (`api_type = "scripted"`) running
 * the swe agent's bash calls in the local sandbox image, with extra `[sandbox]` lines.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type Runtime } from '../../runtime';
import { LOCAL_SANDBOX_IMAGE } from '../../sandbox/testing/docker-env';

export function bashTurn(command: string) {
  return { content: `Running ${command}`, toolCalls: [{ name: 'bash', arguments: { command } }] };
}

export const TERMINATE_TURN = {
  content: 'done',
  toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
};

export function terminalRuntime(turns: unknown[], sandboxLines: string[] = []): Runtime {
  const home = mkdtempSync(join(tmpdir(), 'wb-terminal-'));
  writeFileSync(join(home, 'scenario.json'), JSON.stringify({ scenarios: [{ name: 's', turns }] }));
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[llm]',
      'api_type = "scripted"',
      'scenario = "scenario.json"',
      '[sandbox]',
      `image = "${LOCAL_SANDBOX_IMAGE}"`,
      ...sandboxLines,
    ].join('\n'),
  );
  return createRuntime({ home, env: {} });
}

export async function waitFor(probe: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
