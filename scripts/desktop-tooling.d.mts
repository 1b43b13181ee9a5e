// Types of scripts/desktop-tooling.mjs, for the tests that import it.
export const root: string;
export const toolingDir: string;
export const DESKTOP_NODE: string;
export function nodeSupportsDesktop(version?: string): boolean;
export function pinnedElectronVersion(): string;
export function failureLine(output: string): string;
export function ensureDesktopTooling(options?: {
  log?: (message: string) => void;
}): { ok: true } | { ok: false; reason: string };
export function electronBinary(options?: {
  log?: (message: string) => void;
}): { path: string; reason?: undefined } | { path?: undefined; reason: string };
