/**
 * The pre-flight's sandbox checks (preflight.ts): the engine answers, and the image is
 * there, can be pulled, or is a local-only tag that is missing. Required by an agent that
 * has nothing but sandbox tools (an error), optional for the others (a warning).
 */
import type { PreflightCheck } from '@shared/ipc';
import type { RuntimeServices } from '../agents/runtime-services';
import type { WorkbenchConfig } from '../config/schema';
import { isLocalOnlyImage } from '../sandbox/image';
import { isCancellation } from '../util/abort';
import type { PreflightOptions } from './preflight';

export async function sandboxChecks(
  services: RuntimeServices,
  config: WorkbenchConfig,
  need: 'required' | 'optional',
  options: PreflightOptions,
): Promise<PreflightCheck[]> {
  const severity = need === 'required' ? 'error' : 'warn';
  const consequence =
    need === 'required'
      ? 'this agent has no tools without it'
      : 'the code and shell tools will fail';
  const image = config.sandbox.image;
  if (!config.sandbox.use_sandbox) {
    return [
      {
        id: 'docker',
        status: severity,
        message: `The sandbox is turned off ([sandbox] use_sandbox = false): ${consequence}`,
        fix: 'Turn the sandbox on in Settings → Sandbox.',
      },
    ];
  }
  const probe = await services.sandboxes.probe({
    timeoutMs: 3000,
    engines: config.sandbox.engines,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!probe.isAvailable) {
    return [
      {
        id: 'docker',
        status: severity,
        message: `${probe.error ?? 'Docker does not answer'} (${consequence})`,
        fix: engineFix(config.sandbox.engines.map((e) => e.url)),
      },
    ];
  }
  const docker: PreflightCheck = {
    id: 'docker',
    status: 'ok',
    message: `Docker ${probe.version ?? ''} answers`.replace('  ', ' '),
  };
  let hasImage: boolean;
  try {
    hasImage = await services.sandboxes.engine.hasImage(image, {
      timeoutMs: 5000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (isCancellation(error, options.signal)) throw error;
    return [
      docker,
      {
        id: 'image',
        status: 'warn',
        message: `Could not check the sandbox image ${image}: ${(error as Error).message}`,
      },
    ];
  }
  if (hasImage) {
    return [
      docker,
      { id: 'image', status: 'ok', message: `The sandbox image ${image} is present` },
    ];
  }
  if (isLocalOnlyImage(image)) {
    return [
      docker,
      {
        id: 'image',
        status: severity,
        message: `The sandbox image ${image} is not on this Docker engine and cannot be pulled (${consequence})`,
        fix: 'Build it with `sudo ./scripts/setup-system.sh`, or choose an image this machine has in Settings → Sandbox.',
      },
    ];
  }
  return [
    docker,
    {
      id: 'image',
      status: 'warn',
      message: `The sandbox image ${image} is not on this machine: it is pulled on first use, which needs internet access`,
      fix: 'Offline? Choose an image this machine has in Settings → Sandbox, or build the local one with `sudo ./scripts/setup-system.sh`.',
    },
  ];
}

/**
 * What to do when no engine answers. Starting the local Docker fixes a local socket only:
 * for ssh:// and tcp:// engines the message above names the engine and its own fix (a
 * refused ssh login, a host that does not answer), so this points there (issue 26 item 11).
 */
export function engineFix(
  engines: readonly string[],
  dockerHost: string | undefined = process.env['DOCKER_HOST'],
): string {
  const named = engines.length > 0 ? engines : ['DOCKER_HOST'];
  const addresses = named.map((a) => (a === 'DOCKER_HOST' ? (dockerHost ?? '') : a));
  const remote = addresses.filter((a) => /^(ssh|tcp|https?):\/\//.test(a));
  if (remote.length === 0) {
    return 'Start Docker (Docker Desktop, or `sudo systemctl start docker`); `sudo ./scripts/setup-system.sh` installs and starts it on Debian/Ubuntu.';
  }
  const where =
    engines.length > 0 ? '[sandbox] engines in config.toml (Settings → Sandbox)' : 'DOCKER_HOST';
  return `Fix what the message says for ${remote.join(', ')} (the engine's machine, its login or its certificates), or change ${where} to an engine that answers.`;
}
