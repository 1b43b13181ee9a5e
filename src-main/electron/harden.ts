/**
 * Navigation and window-opening rules for every webContents (Electron security
 * checklist items 12-15): no navigation away from our UI, no new windows, no webviews,
 * and only https links handed to the system browser.
 */
import type { WebContents } from 'electron';

export function isSafeExternalUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

function isOwnUrl(raw: string, allowedOrigins: string[]): boolean {
  try {
    const url = new URL(raw);
    return (
      allowedOrigins.includes(url.origin) || allowedOrigins.includes(`${url.protocol}//${url.host}`)
    );
  } catch {
    return false;
  }
}

export function hardenWebContents(
  webContents: WebContents,
  allowedOrigins: string[],
  openExternal: (url: string) => void,
): void {
  webContents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) openExternal(url);
    return { action: 'deny' };
  });
  webContents.on('will-navigate', (event, url) => {
    if (!isOwnUrl(url, allowedOrigins)) event.preventDefault();
  });
  webContents.on('will-frame-navigate', (event) => {
    if (!isOwnUrl(event.url, allowedOrigins)) event.preventDefault();
  });
  webContents.on('will-attach-webview', (event) => event.preventDefault());
}
