/**
 * The application menu: the standard edit and window roles (so copy, paste and the
 * platform shortcuts work), a View menu whose Reload shows the snapshot a reloading UI
 * gets, and entries that open the data folder and the config file. Developer tools
 * are offered only in development.
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openDataFolder(): void;
  openConfigFile(): void;
}

export function menuTemplate(
  actions: MenuActions,
  options: { platform: NodeJS.Platform; appName: string; isDev: boolean },
): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (isMac) {
    template.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    {
      label: 'File',
      submenu: [
        { label: 'Open Data Folder', click: () => actions.openDataFolder() },
        { label: 'Open config.toml', click: () => actions.openConfigFile() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(options.isDev ? [{ role: 'toggleDevTools' } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  );
  return template;
}
