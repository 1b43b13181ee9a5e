import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Null when an Electron binary is installed; otherwise why the desktop specs cannot run. */
export function electronUnavailableReason(): string | null {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = dirname(require.resolve('electron/package.json'));
  } catch {
    return 'the electron package is not installed';
  }
  const pathFile = join(dir, 'path.txt');
  const binary = existsSync(pathFile)
    ? join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
    : null;
  if (!binary || !existsSync(binary)) {
    return 'no Electron binary in node_modules/electron/dist (it is downloaded on the first `npm start`; this machine cannot download it)';
  }
  if (process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']) {
    return 'no display (run under xvfb-run)';
  }
  return null;
}
