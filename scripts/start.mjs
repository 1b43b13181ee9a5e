#!/usr/bin/env node
// `npm start`: builds if needed, then opens the desktop window. The desktop tooling
// (Electron) is installed into packaging/ and its binary downloaded on the first start
// (scripts/desktop-tooling.mjs). Where that cannot happen (Node older than Electron's
// installer needs, no internet access, no display), the same app opens in browser mode,
// and this script says why in one line.
import { spawn } from 'node:child_process';
import { ensureBuilt } from './ensure-built.mjs';
import {
  DESKTOP_NODE,
  electronBinary,
  ensureDesktopTooling,
  nodeSupportsDesktop,
  root,
} from './desktop-tooling.mjs';

ensureBuilt();

function startBrowserMode(reason) {
  console.error(`[workbench] The desktop window cannot open here: ${reason}.`);
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

function desktopBinary() {
  if (process.env.WORKBENCH_BROWSER_MODE === '1')
    return { reason: 'WORKBENCH_BROWSER_MODE=1 is set' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (DISPLAY is not set)' };
  }
  if (!nodeSupportsDesktop()) {
    return {
      reason: `Electron 45 needs Node ${DESKTOP_NODE} or newer to install, and this is Node ${process.versions.node}`,
    };
  }
  const tooling = ensureDesktopTooling();
  if (!tooling.ok) return { reason: tooling.reason };
  return electronBinary();
}

const desktop = desktopBinary();
if (desktop.reason) {
  startBrowserMode(desktop.reason);
} else {
  const child = spawn(desktop.path, ['.'], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}
