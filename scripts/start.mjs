#!/usr/bin/env node
// `npm start`: builds if needed, then opens the desktop app. The Electron binary is
// downloaded on the first start (the electron package fetches it lazily). Where that is
// impossible (no network, no display), the same app opens in browser mode instead, and
// this script says so plainly.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

ensureBuilt();

function electronBinary() {
  try {
    // Resolving the package downloads the binary on first use.
    return { path: require('electron') };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function startBrowserMode(reason) {
  console.error(`[workbench] The desktop window cannot open here: ${reason}`);
  console.error(
    '[workbench] Starting browser mode instead (the same app, served locally). Open the URL below.',
  );
  const child = spawn(process.execPath, ['bin/workbench.js', 'serve'], {
    cwd: root,
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}

const noDisplay =
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
if (process.env.WORKBENCH_BROWSER_MODE === '1') {
  startBrowserMode('WORKBENCH_BROWSER_MODE=1 is set');
} else if (noDisplay) {
  startBrowserMode('there is no display (DISPLAY is not set)');
} else {
  const electron = electronBinary();
  if (electron.error) {
    startBrowserMode(`the Electron binary is not available (${electron.error.split('\n')[0]})`);
  } else {
    const child = spawn(electron.path, ['.'], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  }
}
