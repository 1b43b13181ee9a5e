/**
 * Whether the browser can show a window here. `[browser] headless = false` comes with
 * OpenManus configs (it is OpenManus's default), and on a machine with no display (a
 * server, CI, a container) Chromium would fail to start at all: the browser falls back
 * to headless and says so, instead of failing every browser action (issue 16 item 6).
 */

export interface HeadlessChoice {
  headless: boolean;
  /** set when a visible browser was asked for and cannot be shown */
  warning?: string;
}

export function chooseHeadless(
  requested: boolean,
  env: NodeJS.ProcessEnv = process.env,
  platform: string = process.platform,
): HeadlessChoice {
  if (requested) return { headless: true };
  // macOS and Windows always have a desktop; elsewhere X11 or Wayland must be there.
  if (platform === 'darwin' || platform === 'win32') return { headless: false };
  if (env['DISPLAY'] || env['WAYLAND_DISPLAY']) return { headless: false };
  return {
    headless: true,
    warning:
      '[browser] headless = false asks for a visible browser, but this machine has no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the browser runs headless.',
  };
}
