/**
 * A step and the agent's memory: a step starts and finishes, messages are appended or
 * leave the window, and a reply repeats (stuck).
 * Part of the RunEvent contract (../events.ts, docs/events.md).
 */
import type { Role, ToolCall } from '../domain/message';

/** A memory message as it travels in events: never carries image bytes or secrets. */
export interface EventMessage {
  role: Role;
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  /** set when the runtime message carries an image (its bytes stay in the main process) */
  imageMimeType?: string;
  /**
   * the image as the history keeps it: a file beside the run's log, named by `ref`
   * (issue 17). Absent in runs recorded before images were kept; then only
   * `imageMimeType` says there was one.
   */
  image?: EventImage;
}

/** A memory message's image in the history (docs/events.md, "Images"). */
export interface EventImage {
  /** the type the tool declared (`image/png`, ...) */
  mimeType: string;
  /** the decoded size */
  bytes: number;
  /**
   * the stored file, content-addressed: `<sha256 hex>.<png|jpg|gif|webp>` (see
   * `image-ref.ts`); absent when the bytes were not kept (`notKept` says why)
   */
  ref?: string;
  width?: number;
  height?: number;
  /** why the bytes were not kept: over the size cap, a type not allowed, the disk refused */
  notKept?: string;
}

export interface StepStartedEvent {
  type: 'step.started';
  agent: string;
  step: number;
  maxSteps: number;
}
export interface StepFinishedEvent {
  type: 'step.finished';
  agent: string;
  step: number;
  durationMs: number;
}
export interface MemoryAppendedEvent {
  type: 'memory.appended';
  agent: string;
  /** position in the agent's full history; never reused, also after truncation */
  index: number;
  message: EventMessage;
  /**
   * an assistant response that repeats an earlier response of the same agent in this run
   * (by content, by tool calls, or both: src-shared/duplicate-keys.ts); set by the run
   */
  duplicate?: 'content' | 'tool_calls' | 'both';
}
export interface MemoryTruncatedEvent {
  type: 'memory.truncated';
  agent: string;
  /** memory indexes the model no longer receives */
  dropped: number[];
  window: number;
}
export interface StuckDetectedEvent {
  type: 'stuck.detected';
  agent: string;
  step: number;
  kind: 'content' | 'tool_calls';
  count: number;
  /** memory indexes of the earlier duplicates */
  duplicateOf: number[];
}
