/**
 * Bounds what a server can make the client do without being asked. A server that sent
 * 100k notifications before answering a call stalled the runtime: the SDK schedules a
 * microtask per notification, every tools/list_changed re-listed the tools (50k
 * tools/list requests, whose answers then had to be read too), the call's timeout fired
 * seconds late and the next call waited behind it all.
 *
 * The gate sits between the SDK's client and its transport, so it sees every message
 * before the SDK does, and it does O(1) work for each:
 * - `notifications/tools/list_changed` is never passed on: `toolsChanged` is called, and
 *   the connection coalesces those calls into at most one re-list at a time
 *   (tool-list-refresh.ts);
 * - `notifications/progress` is coalesced per progress token (the latest report wins)
 *   and passed on once per turn of the event loop, or before any other message so a
 *   call's last report still comes before its answer;
 * - other notifications and the server's own requests (which the client did not ask
 *   for) pass within a budget per second; the rest are dropped and counted, never
 *   queued. Answers to our requests always pass.
 *
 * What it cannot bound: the SDK's transport parses each line it reads (JSON and schema,
 * some microseconds a message) before the gate sees it.
 */
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

/** Unsolicited messages (not answers, progress or tool list changes) passed on per second. */
export const UNSOLICITED_PER_SECOND = 100;
/** Progress tokens with a report waiting at once; the client has one per call in flight. */
const MAX_PROGRESS_TOKENS = 100;
const WINDOW_MS = 1_000;

export interface GateHooks {
  /** the server said its tool list changed; called once for each notification, must be cheap */
  toolsChanged(): void;
}

interface Held {
  message: JSONRPCNotification;
  extra: MessageExtraInfo | undefined;
}

export class NotificationGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  /** the latest progress report of each token, until the next flush */
  private readonly progress = new Map<string | number, Held>();
  private flush: NodeJS.Immediate | null = null;
  private windowStart = 0;
  private inWindow = 0;
  private droppedCount = 0;
  private closed = false;

  constructor(
    readonly inner: Transport,
    private readonly hooks: GateHooks,
    private readonly perSecond = UNSOLICITED_PER_SECOND,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Over HTTP the negotiated version goes on every request; stdio has no such setting. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.stop();
      this.onclose?.();
    };
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  async close(): Promise<void> {
    this.stop();
    await this.inner.close();
  }

  /** Messages dropped since the last call. */
  takeDropped(): number {
    const dropped = this.droppedCount;
    this.droppedCount = 0;
    return dropped;
  }

  private receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (this.closed) return;
    const isAnswer = !('method' in message);
    if (isAnswer) return this.pass(message, extra);
    if (!('id' in message)) {
      if (message.method === 'notifications/tools/list_changed') return this.hooks.toolsChanged();
      if (message.method === 'notifications/progress') return this.hold(message, extra);
    }
    if (this.withinBudget()) this.pass(message, extra);
    else this.droppedCount++;
  }

  private pass(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    // Progress held back goes first: a call's last report must not follow its answer.
    if (this.progress.size > 0 && this.release() && !('method' in message)) {
      // The SDK handles a notification one microtask late but an answer at once (and
      // forgets the call's progress handler then): the answer waits one microtask too.
      queueMicrotask(() => {
        if (!this.closed) this.onmessage?.(message, extra);
      });
      return;
    }
    this.onmessage?.(message, extra);
  }

  private hold(message: JSONRPCNotification, extra: MessageExtraInfo | undefined): void {
    const token: unknown = message.params?.['progressToken'];
    if (typeof token !== 'string' && typeof token !== 'number') return void this.droppedCount++;
    if (!this.progress.has(token) && this.progress.size >= MAX_PROGRESS_TOKENS) {
      return void this.droppedCount++;
    }
    this.progress.set(token, { message, extra });
    this.flush ??= setImmediate(() => this.release());
  }

  /** Passes on the progress held back; true when there was some. */
  private release(): boolean {
    if (this.flush) clearImmediate(this.flush);
    this.flush = null;
    const held = [...this.progress.values()];
    this.progress.clear();
    for (const { message, extra } of held) this.onmessage?.(message, extra);
    return held.length > 0;
  }

  private withinBudget(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    return ++this.inWindow <= this.perSecond;
  }

  private stop(): void {
    this.closed = true;
    if (this.flush) clearImmediate(this.flush);
    this.flush = null;
    this.progress.clear();
  }
}
