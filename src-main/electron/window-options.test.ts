import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from './window-options';

describe('mainWindowOptions', () => {
  it('isolates the renderer: context isolation, OS sandbox, no Node integration', () => {
    const prefs = mainWindowOptions('/app/out/preload/index.cjs').webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
    expect(prefs?.preload).toBe('/app/out/preload/index.cjs');
  });
});
