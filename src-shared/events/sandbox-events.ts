/**
 * The sandbox's lifecycle as a run sees it.
 * Part of the RunEvent contract (../events.ts, docs/events.md).
 */

/** `queued`: waiting for a free sandbox ([sandbox] max_containers); `progress` says where */
export const SANDBOX_STATUSES = [
  'creating',
  'ready',
  'busy',
  'idle',
  'removed',
  'failed',
  'queued',
] as const;
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];
export interface SandboxChangedEvent {
  type: 'sandbox.changed';
  status: SandboxStatus;
  containerId?: string;
  image: string;
  error?: string;
  /**
   * for `failed`: what kind of failure, so a UI can offer the fix (start Docker, build or
   * choose an image); absent for failures of unknown kind
   */
  reason?: SandboxFailureReason;
  /** progress text while an image is pulled, or the place in the queue while `queued` */
  progress?: string;
  /**
   * for `ready`, when `[sandbox] engines` lists more than one: the engine the sandbox was
   * placed on (unix:///..., tcp://host:port (TLS), ssh://...)
   */
  engine?: string;
}
export const SANDBOX_FAILURE_REASONS = [
  'engine_unavailable',
  'engine_timeout',
  'engine_disconnected',
  'image_unavailable',
  'container_gone',
  'sandbox_disabled',
  'workspace_full',
  'internal',
] as const;
export type SandboxFailureReason = (typeof SANDBOX_FAILURE_REASONS)[number];
