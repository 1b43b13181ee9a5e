/**
 * The model calls still waiting for their answer, per agent: the timeline's pending-call
 * row (issue 17 item 6, "waiting made visible"). Until the first streamed text or the
 * reply arrives, the row names the model, the time since the request, the attempt
 * ("attempt 2 of 4") and why each earlier attempt failed. Pure functions over a copied
 * record (the draft copies it per batch), so a row re-renders only when its call changes.
 */
import type { RunEventOf } from '@shared/events';

export interface PendingRetry {
  /** the attempt that failed (1-based) */
  attempt: number;
  /** HTTP status, or null for a network failure */
  status: number | null;
  error: string;
  /** how long the client waits before the next attempt */
  delayMs: number;
  /** when the failure was reported (event ts, ms since the epoch) */
  ts: number;
}

export interface PendingCall {
  agent: string;
  step: number;
  model: string;
  /** when the call was requested (event ts): the elapsed time counts from here */
  since: number;
  /** the attempt under way (1-based) */
  attempt: number;
  /** attempts the call may take (max_retries + 1); absent for older runs */
  maxAttempts?: number;
  /** newest last */
  retries: PendingRetry[];
  /** the MCP server whose sampling request this call answers */
  sampledBy?: string;
}

export type PendingCalls = Record<string, PendingCall>;

/** A retry's reason in a few words: "HTTP 429: Rate limited …" or "network: …". */
export function retryReason(retry: Pick<PendingRetry, 'status' | 'error'>): string {
  return `${retry.status === null ? 'network' : `HTTP ${retry.status}`}: ${retry.error}`;
}

/** "attempt 2 of 4", or "attempt 2" when the maximum is unknown. */
export function attemptLabel(call: Pick<PendingCall, 'attempt' | 'maxAttempts'>): string {
  return call.maxAttempts !== undefined
    ? `attempt ${call.attempt} of ${call.maxAttempts}`
    : `attempt ${call.attempt}`;
}

/** "4 s", "1 min 05 s": the elapsed time of a waiting call. */
export function formatWaited(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
}

export function callRequested(calls: PendingCalls, e: RunEventOf<'llm.requested'>): void {
  calls[e.agent] = {
    agent: e.agent,
    step: e.step,
    model: e.model,
    since: e.ts,
    attempt: 1,
    ...(e.maxAttempts !== undefined ? { maxAttempts: e.maxAttempts } : {}),
    retries: [],
    ...(e.sampledBy !== undefined ? { sampledBy: e.sampledBy } : {}),
  };
}

export function callRetried(calls: PendingCalls, e: RunEventOf<'llm.retried'>): void {
  const call = calls[e.agent];
  const retry: PendingRetry = {
    attempt: e.attempt,
    status: e.status,
    error: e.error,
    delayMs: e.delayMs,
    ts: e.ts,
  };
  if (!call || call.step !== e.step) {
    // a retry of a call whose request this view did not see (a client without llm.requested)
    calls[e.agent] = {
      agent: e.agent,
      step: e.step,
      model: '',
      since: e.ts,
      attempt: e.attempt + 1,
      retries: [retry],
    };
    return;
  }
  // a new object: rows compare by identity
  calls[e.agent] = { ...call, attempt: e.attempt + 1, retries: [...call.retries, retry] };
}

/** The answer began (first streamed text) or came, or the agent moved on: no longer waiting. */
export function callSettled(calls: PendingCalls, agent: string): void {
  delete calls[agent];
}
