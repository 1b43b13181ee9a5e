/**
 * Makes sure the sandbox image is present before a container is created: pulled with
 * progress when it can be, or a message naming the image and the command that provides
 * it when it cannot (no network, a local-only tag, a typo).
 */
import { isCancellation } from '../util/abort';
import type { CallOptions, ContainerEngine, PullProgress } from './engine';
import { EngineUnavailableError, ImageUnavailableError, engineMessage } from './errors';

export const LOCAL_IMAGE = 'agent-workbench/sandbox:local';
const BUILD_HINT =
  'Build the local sandbox image with `sudo ./scripts/setup-system.sh` ' +
  `and set [sandbox] image = "${LOCAL_IMAGE}" in config.toml`;

/** Tags that only exist where they were built: pulling them can only fail. */
export function isLocalOnlyImage(image: string): boolean {
  return image === LOCAL_IMAGE || image.endsWith(':local') || image.startsWith('agent-workbench/');
}

export async function ensureImage(
  engine: ContainerEngine,
  image: string,
  onProgress: (progress: PullProgress) => void,
  options: CallOptions = {},
): Promise<'present' | 'pulled'> {
  if (await engine.hasImage(image, options)) return 'present';
  if (isLocalOnlyImage(image)) {
    throw new ImageUnavailableError(
      `The sandbox image "${image}" is not on this Docker engine and cannot be pulled. ${BUILD_HINT}.`,
    );
  }
  onProgress({ text: `pulling ${image}` });
  try {
    await engine.pullImage(image, onProgress, options);
  } catch (error) {
    if (isCancellation(error, options.signal) || error instanceof EngineUnavailableError) {
      throw error;
    }
    throw new ImageUnavailableError(
      `The sandbox image "${image}" is not available locally and could not be pulled ` +
        `(${firstLine(engineMessage(error))}). Pull it with \`docker pull ${image}\` when online, ` +
        `or ${BUILD_HINT.charAt(0).toLowerCase()}${BUILD_HINT.slice(1)}.`,
      { cause: error },
    );
  }
  if (!(await engine.hasImage(image, options))) {
    throw new ImageUnavailableError(
      `Pulling "${image}" finished but the image is still missing. Check the name in [sandbox] image.`,
    );
  }
  return 'pulled';
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).slice(0, 300);
}
