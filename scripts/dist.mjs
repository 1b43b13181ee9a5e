#!/usr/bin/env node
// `npm run dist [-- --linux]`: packages the desktop app with electron-builder, which
// lives in packaging/ with Electron (they need Node 22.12 or newer; see
// scripts/desktop-tooling.mjs). The app's own package.json holds the `build` config.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt } from './ensure-built.mjs';
import {
  DESKTOP_NODE,
  ensureDesktopTooling,
  nodeSupportsDesktop,
  root,
  toolingDir,
} from './desktop-tooling.mjs';

if (!nodeSupportsDesktop()) {
  console.error(
    `[workbench] Packaging needs Node ${DESKTOP_NODE} or newer (electron-builder and Electron declare it); this is Node ${process.versions.node}.`,
  );
  process.exit(1);
}
const tooling = ensureDesktopTooling();
if (!tooling.ok) {
  console.error(`[workbench] ${tooling.reason}`);
  process.exit(1);
}
ensureBuilt();
const builder = join(toolingDir, 'node_modules', '.bin', 'electron-builder');
const result = spawnSync(builder, ['--projectDir', root, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
