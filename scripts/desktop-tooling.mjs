#!/usr/bin/env node
// The desktop window's tooling (Electron, electron-builder) lives in packaging/, apart
// from the app's own dependencies: Electron 45's installer and electron-builder's native
// rebuilder declare Node 22.12 or newer, while the CLI, browser mode and the tests run
// on Node 20.19. `npm install` therefore never meets them (no EBADENGINE warnings);
// `npm start` and `npm run dist` install them on demand, where Node is new enough.
//
// Every failure here is one readable line for the user: no stack traces, no advice
// that does not apply (Electron's own message suggests `npx install-electron`).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const toolingDir = join(root, 'packaging');
export const DESKTOP_NODE = '22.12.0';
/** An Electron download is ~100 MB; past this the user is told, not left waiting. */
const DOWNLOAD_TIMEOUT_MS = 15 * 60_000;

/** True when this Node can install the desktop tooling (Electron declares 22.12+). */
export function nodeSupportsDesktop(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  const [wantMajor, wantMinor] = DESKTOP_NODE.split('.').map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/** The Electron version the desktop app is pinned to (packaging/package.json). */
export function pinnedElectronVersion() {
  const pkg = JSON.parse(readFileSync(join(toolingDir, 'package.json'), 'utf8'));
  return pkg.devDependencies.electron;
}

/**
 * The one line that says why a tool failed, from its output: the last line that reads
 * like an error, never a stack frame or the tool's advice to run something else.
 */
export function failureLine(output) {
  const lines = String(output)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^at\s/.test(l) && !/install-electron|npm error A complete log/.test(l));
  const errorish = lines.filter((l) => /error|fail|ENOTFOUND|EAI_AGAIN|ECONN|timed out/i.test(l));
  const line = (errorish.at(-1) ?? lines.at(-1) ?? 'no output').replace(/^npm error\s*/, '');
  const offline = /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|getaddrinfo/i.test(
    String(output),
  );
  return offline ? `no internet access (${line.slice(0, 160)})` : line.slice(0, 200);
}

/** Installs packaging/ when its node_modules are missing or older than its lockfile. */
export function ensureDesktopTooling({ log = (m) => console.error(m) } = {}) {
  const installed = join(toolingDir, 'node_modules', '.package-lock.json');
  const lock = join(toolingDir, 'package-lock.json');
  if (existsSync(installed) && readFileSync(installed, 'utf8').length > 0) {
    const want = JSON.parse(readFileSync(lock, 'utf8')).packages?.['node_modules/electron']
      ?.version;
    const have = JSON.parse(readFileSync(installed, 'utf8')).packages?.['node_modules/electron']
      ?.version;
    if (want && want === have) return { ok: true };
  }
  log(
    '[workbench] installing the desktop tooling (Electron, electron-builder) into packaging/ ...',
  );
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: toolingDir,
    encoding: 'utf8',
    // Electron's binary is fetched on first start, not here.
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (result.status !== 0) {
    return {
      ok: false,
      reason: `the desktop tooling could not be installed: ${failureLine(`${result.stdout}\n${result.stderr}`)}`,
    };
  }
  return { ok: true };
}

/** The Electron binary's path, downloading it on first use; or why it is not there. */
export function electronBinary({ log = (m) => console.error(m) } = {}) {
  const dir = join(toolingDir, 'node_modules', 'electron');
  const binary = () => {
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const path = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(path) ? path : null;
  };
  const found = binary();
  if (found) return { path: found };
  log(`[workbench] downloading Electron ${pinnedElectronVersion()} (once, about 100 MB) ...`);
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: DOWNLOAD_TIMEOUT_MS,
  });
  const downloaded = result.status === 0 ? binary() : null;
  if (downloaded) return { path: downloaded };
  const why =
    result.error?.code === 'ETIMEDOUT'
      ? `no answer within ${DOWNLOAD_TIMEOUT_MS / 60_000} minutes`
      : failureLine(`${result.stdout ?? ''}\n${result.stderr ?? ''}`);
  return { reason: `the Electron binary could not be downloaded: ${why}` };
}

// `node scripts/desktop-tooling.mjs types`: refresh the copy of Electron's type
// declarations (types/electron) from the installed Electron.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] !== 'types') {
    console.error('usage: node scripts/desktop-tooling.mjs types');
    process.exit(2);
  }
  if (!nodeSupportsDesktop()) {
    console.error(
      `[workbench] Electron's tooling needs Node ${DESKTOP_NODE} or newer (this is ${process.version}).`,
    );
    process.exit(1);
  }
  const tooling = ensureDesktopTooling();
  if (!tooling.ok) {
    console.error(`[workbench] ${tooling.reason}`);
    process.exit(1);
  }
  copyFileSync(
    join(toolingDir, 'node_modules', 'electron', 'electron.d.ts'),
    join(root, 'types', 'electron', 'electron.d.ts'),
  );
  console.error(
    `[workbench] types/electron/electron.d.ts now has Electron ${pinnedElectronVersion()}'s declarations.`,
  );
}
