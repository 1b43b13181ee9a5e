/**
 * The desktop tooling's first start (scripts/desktop-tooling.mjs): which Node can
 * install Electron, and the one line a user reads when it cannot be had, never a stack
 * trace or Electron's advice to run `npx install-electron`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  failureLine,
  nodeSupportsDesktop,
  pinnedElectronVersion,
} from '../../scripts/desktop-tooling.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What Electron 45's installer printed on `npm start` without internet access. */
const OFFLINE_DOWNLOAD = `Downloading Electron binary...
TypeError: fetch failed
    at node:internal/deps/undici/undici:14976:13
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async FetchDownloader.download (file:///app/node_modules/@electron/get/dist/FetchDownloader.js:46:30)
    at async downloadArtifact (file:///app/node_modules/@electron/get/dist/index.js:154:12)
Electron failed to install correctly. Please delete \`node_modules/electron\` and run "npx install-electron --no" manually.`;

describe('desktop tooling', () => {
  it('installs Electron only on the Node it declares (22.12 or newer)', () => {
    expect(nodeSupportsDesktop('20.20.2')).toBe(false);
    expect(nodeSupportsDesktop('22.11.0')).toBe(false);
    expect(nodeSupportsDesktop('22.12.0')).toBe(true);
    expect(nodeSupportsDesktop('24.1.0')).toBe(true);
  });

  it('turns a failed download into one line, without the stack or the wrong advice', () => {
    const line = failureLine(OFFLINE_DOWNLOAD);
    expect(line).toMatch(/^no internet access \(/);
    expect(line).not.toContain('\n');
    expect(line).not.toMatch(/ at |install-electron/);
    expect(failureLine('npm error code ENOTFOUND\nnpm error network request to x failed')).toMatch(
      /^no internet access/,
    );
  });

  it("type-checks the glue against the pinned Electron's own declarations", () => {
    const copy = readFileSync(`${root}types/electron/electron.d.ts`, 'utf8');
    expect(copy.split('\n')[0]).toBe(`// Type definitions for Electron ${pinnedElectronVersion()}`);
    const installed = `${root}packaging/node_modules/electron/electron.d.ts`;
    // where the tooling is installed, the copy must be exactly its declarations
    if (existsSync(installed)) expect(copy).toBe(readFileSync(installed, 'utf8'));
  });
});
