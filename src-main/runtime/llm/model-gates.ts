/**
 * Fairness between model profiles when many runs go at once (a batch): each profile has
 * a gate that all runs' calls of that profile pass. `[llm.NAME] max_concurrency` caps the
 * calls in flight (the rest queue, first come first served), and a 429 from the provider
 * makes that profile's new calls rest for the Retry-After the client was told, so one
 * rate-limited profile slows itself only: other profiles' calls go on.
 */
import type { LlmProfile } from '../config/schema';
import { abortableSleep } from '../util/abort';
import { SlotQueue } from '../util/slot-queue';
import type { ChatOptions, ChatRequest, ChatResponse, LlmClient, QueuedNotice } from './llm-client';
import type { RequestParams } from '@shared/events';

export class ProfileGate {
  private slots: SlotQueue | null = null;
  private restUntil = 0;

  constructor(capacity?: number) {
    this.setCapacity(capacity);
  }

  setCapacity(capacity: number | undefined): void {
    if (capacity === undefined) {
      // Calls already holding slots release into the old queue; new calls pass freely.
      this.slots = null;
    } else if (this.slots) this.slots.setCapacity(capacity);
    else this.slots = new SlotQueue(capacity);
  }

  /** calls in flight under the cap (0 without one) */
  get inFlight(): number {
    return this.slots?.used ?? 0;
  }

  /** The profile rests `ms` from now (a 429's Retry-After). */
  rest(ms: number): void {
    this.restUntil = Math.max(this.restUntil, Date.now() + ms);
  }

  /** Waits for the profile's turn; the returned function ends the call. */
  async enter(
    signal?: AbortSignal,
    onQueued?: (notice: QueuedNotice) => void,
  ): Promise<() => void> {
    for (let wait = this.restUntil - Date.now(); wait > 0; wait = this.restUntil - Date.now()) {
      onQueued?.({ reason: 'rate_limited', delayMs: wait });
      await abortableSleep(wait, signal);
    }
    if (!this.slots) return () => undefined;
    const slot = await this.slots.acquire({
      ...(signal ? { signal } : {}),
      onQueued: (position) =>
        onQueued?.({
          reason: 'max_concurrency',
          ahead: position.ahead,
          capacity: position.capacity,
        }),
    });
    return () => slot.release();
  }
}

/** One gate per profile name, shared by every run of the runtime. */
export class ModelGates {
  private readonly gates = new Map<string, ProfileGate>();

  for(profile: Pick<LlmProfile, 'name' | 'maxConcurrency'>): ProfileGate {
    let gate = this.gates.get(profile.name);
    if (!gate) {
      gate = new ProfileGate(profile.maxConcurrency);
      this.gates.set(profile.name, gate);
    } else gate.setCapacity(profile.maxConcurrency);
    return gate;
  }
}

/** A model client whose calls pass its profile's gate. */
export class GatedLlm implements LlmClient {
  constructor(
    private readonly inner: LlmClient,
    private readonly gate: ProfileGate,
  ) {}

  get model(): string {
    return this.inner.model;
  }

  get maxAttempts(): number | undefined {
    return this.inner.maxAttempts;
  }

  countTokens(request: ChatRequest): number {
    return this.inner.countTokens?.(request) ?? 0;
  }

  /** what `llm.requested.params` records: the inner client's, or the event lies */
  requestParams(): RequestParams | undefined {
    return this.inner.requestParams?.();
  }

  async complete(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    // The queue's end is only known here: the answer says how long the call waited, so a
    // UI can tell the wait from the model's own time (`llm.responded.queuedMs`).
    let queuedAt: number | undefined;
    const leave = await this.gate.enter(options.signal, (notice) => {
      queuedAt ??= performance.now();
      options.onQueued?.(notice);
    });
    const queuedMs = queuedAt === undefined ? 0 : Math.round(performance.now() - queuedAt);
    try {
      const response = await this.inner.complete(request, {
        ...options,
        onRetry: (notice) => {
          if (notice.status === 429) this.gate.rest(notice.delayMs);
          options.onRetry?.(notice);
        },
      });
      return queuedMs > 0 ? { ...response, queuedMs } : response;
    } finally {
      leave();
    }
  }
}
