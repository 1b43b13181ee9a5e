/**
 * The electron-builder configuration (package.json `build`): valid for electron-builder's
 * own schema, packaging Linux (AppImage, deb), macOS and Windows, with the Electron
 * fuses of reliability.md 1.1 item 19.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  build: Record<string, unknown> & { electronFuses: Record<string, boolean> };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const tooling = JSON.parse(readFileSync(`${root}packaging/package.json`, 'utf8')) as {
  devDependencies: { electron: string; 'electron-builder': string };
};
// electron-builder lives in packaging/ (scripts/desktop-tooling.mjs), installed on Node 22.12+.
const require = createRequire(`${root}packaging/package.json`);
const isBuilderInstalled = existsSync(`${root}packaging/node_modules/app-builder-lib/package.json`);
if (!isBuilderInstalled) {
  console.warn(
    '[tests] electron-builder schema validation skipped: packaging/ is not installed (npm run dist installs it on Node 22.12+)',
  );
}

describe('electron-builder configuration', () => {
  it('packages the Electron version packaging/ pins, and keeps the desktop tooling out of npm install', () => {
    expect(pkg.build['electronVersion']).toBe(tooling.devDependencies.electron);
    // they declare Node 22.12: in the app's own package.json npm would warn on Node 20
    for (const name of ['electron', 'electron-builder']) {
      expect(pkg.devDependencies[name]).toBeUndefined();
      expect(pkg.dependencies[name]).toBeUndefined();
    }
  });

  it.skipIf(!isBuilderInstalled)('passes electron-builder validation', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util/out/DebugLogger.js') as {
      DebugLogger: new (enabled: boolean) => unknown;
    };
    await expect(validateConfiguration(pkg.build, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...pkg.build, notAKey: true }, new DebugLogger(false)),
    ).rejects.toThrow(/notAKey/);
  });

  it('targets Linux AppImage and deb, macOS and Windows, and ships only the build output', () => {
    expect(pkg.build).toMatchObject({
      linux: { target: ['AppImage', 'deb'] },
      mac: { target: expect.arrayContaining(['dmg']) },
      win: { target: ['nsis'] },
      asar: true,
      files: expect.arrayContaining(['out/**/*', 'package.json']),
    });
  });

  it('sets the fuses of the security checklist', () => {
    expect(pkg.build.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
