/**
 * Ids that become file and folder names (session workspaces, run logs). Letters, digits,
 * `.`, `_` and `-` only, and never a name made of dots alone: `..` as a session id made
 * the workspace WORKBENCH_HOME itself (issue 12 item 2), `.` the workspaces folder.
 */
const ID_CHARS = /^[A-Za-z0-9._-]+$/;
const DOTS_ONLY = /^\.+$/;

export const MAX_SESSION_ID_LENGTH = 100;
export const MAX_RUN_ID_LENGTH = 200;

/** true when `id` can be used as exactly one path segment under its folder */
export function isPathSafeId(id: string, maxLength: number): boolean {
  return id.length >= 1 && id.length <= maxLength && ID_CHARS.test(id) && !DOTS_ONLY.test(id);
}

export const isSessionId = (id: string): boolean => isPathSafeId(id, MAX_SESSION_ID_LENGTH);
export const isRunId = (id: string): boolean => isPathSafeId(id, MAX_RUN_ID_LENGTH);

/** A batch warm pool's spare session: `<batchId>-warm-<8 hex>` (sandbox/warm-pool.ts). */
export const warmPoolSessionId = (batchId: string, suffix: string): string =>
  `${batchId}-warm-${suffix}`;
export const isWarmPoolSessionId = (id: string): boolean =>
  isSessionId(id) && /-warm-[0-9a-f]{8}$/.test(id);
