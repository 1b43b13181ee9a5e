import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ELECTRON_DIR = join(process.cwd(), 'packaging', 'node_modules', 'electron');

/** The Electron binary `npm start` installed (packaging/, scripts/desktop-tooling.mjs), if any. */
export function electronExecutable(): string | null {
  const pathFile = join(ELECTRON_DIR, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(ELECTRON_DIR, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/** Null when an Electron binary is installed; otherwise why the desktop specs cannot run. */
export function electronUnavailableReason(): string | null {
  if (!existsSync(join(ELECTRON_DIR, 'package.json'))) {
    return 'the desktop tooling is not installed in packaging/ (`npm start` installs it on Node 22.12+)';
  }
  if (!electronExecutable()) {
    return 'no Electron binary in packaging/node_modules/electron/dist (it is downloaded on the first `npm start`; this machine cannot download it)';
  }
  if (process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']) {
    return 'no display (run under xvfb-run)';
  }
  return null;
}
