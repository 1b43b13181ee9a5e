import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { menuTemplate } from './menu';

function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

describe('application menu', () => {
  const actions = { openDataFolder: vi.fn(), openConfigFile: vi.fn() };

  it('has the edit roles, reload, and developer tools only in development', () => {
    const prod = menuTemplate(actions, {
      platform: 'linux',
      appName: 'Agent Workbench',
      isDev: false,
    });
    expect(roles(prod)).toEqual(
      expect.arrayContaining([
        'copy',
        'paste',
        'undo',
        'selectAll',
        'reload',
        'quit',
        'windowMenu',
      ]),
    );
    expect(roles(prod)).not.toContain('toggleDevTools');
    const dev = menuTemplate(actions, {
      platform: 'linux',
      appName: 'Agent Workbench',
      isDev: true,
    });
    expect(roles(dev)).toContain('toggleDevTools');
  });

  it('puts the app menu first on macOS and opens the data folder from File', () => {
    const mac = menuTemplate(actions, {
      platform: 'darwin',
      appName: 'Agent Workbench',
      isDev: false,
    });
    expect(mac[0]?.label).toBe('Agent Workbench');
    const file = mac.find((m) => m.label === 'File');
    const open = (file?.submenu as MenuItemConstructorOptions[]).find(
      (i) => i.label === 'Open Data Folder',
    );
    (open?.click as () => void)();
    expect(actions.openDataFolder).toHaveBeenCalled();
  });
});
