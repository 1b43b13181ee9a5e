/**
 * Text diffs for the compare view's open rows, computed in a worker (text-diff-worker.ts)
 * when a row comes into view, and kept for the rows seen last. Where no worker can be
 * started (tests in jsdom, a page that refuses it) the diff is computed at once, as before.
 */
import { diffText, type DiffMode, type DiffPart } from '@shared/compare/text-diff';
import type { DiffAnswer, DiffRequest } from './text-diff-protocol';

/** What is used of a worker: a MessagePort pair serves as one in tests. */
export interface DiffPort {
  postMessage(message: DiffRequest): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<DiffAnswer>) => void): void;
  addEventListener(type: 'error', listener: () => void): void;
}

/** Diffs kept: the open rows of a few screens. */
const KEPT = 400;

const keyOf = (a: string, b: string, mode: DiffMode) => `${mode}\u0000${a}\u0000${b}`;

export class TextDiffs {
  private readonly done = new Map<string, DiffPart[]>();
  private readonly waiting = new Map<
    number,
    { key: string; resolve(parts: DiffPart[]): void; request: DiffRequest }
  >();
  private readonly pending = new Map<string, Promise<DiffPart[]>>();
  private nextId = 1;
  private port: DiffPort | null | undefined;

  constructor(private readonly startWorker: () => DiffPort | null) {}

  /** The diff if it is known now (always, without a worker); undefined while it is computed. */
  peek(a: string, b: string, mode: DiffMode): DiffPart[] | undefined {
    const key = keyOf(a, b, mode);
    const known = this.done.get(key);
    if (known || this.worker()) return known;
    return this.keep(key, diffText(a, b, mode));
  }

  /** The diff, from the worker. */
  get(a: string, b: string, mode: DiffMode): Promise<DiffPart[]> {
    const key = keyOf(a, b, mode);
    const known = this.done.get(key) ?? (this.worker() ? undefined : this.peek(a, b, mode));
    if (known) return Promise.resolve(known);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = new Promise<DiffPart[]>((resolve) => {
        const request: DiffRequest = { id: this.nextId++, a, b, mode };
        this.waiting.set(request.id, { key, resolve, request });
        this.worker()!.postMessage(request);
      });
      this.pending.set(key, pending);
    }
    return pending;
  }

  private worker(): DiffPort | null {
    if (this.port !== undefined) return this.port;
    try {
      this.port = this.startWorker();
    } catch {
      this.port = null;
    }
    this.port?.addEventListener('message', (event) => this.answered(event.data));
    // a worker that cannot run: what it was asked is computed here, and all after it
    this.port?.addEventListener('error', () => this.fallBack());
    return this.port;
  }

  private answered(answer: DiffAnswer): void {
    const waiting = this.waiting.get(answer.id);
    if (!waiting) return;
    this.waiting.delete(answer.id);
    this.pending.delete(waiting.key);
    waiting.resolve(this.keep(waiting.key, answer.parts));
  }

  private fallBack(): void {
    this.port = null;
    for (const { request } of [...this.waiting.values()]) {
      this.answered({ id: request.id, parts: diffText(request.a, request.b, request.mode) });
    }
  }

  private keep(key: string, parts: DiffPart[]): DiffPart[] {
    this.done.set(key, parts);
    if (this.done.size > KEPT) this.done.delete(this.done.keys().next().value!);
    return parts;
  }
}

/** The page's one diff worker, started on the first diff asked for. */
export const textDiffs = new TextDiffs(() =>
  typeof Worker === 'undefined'
    ? null
    : (new Worker(new URL('./text-diff-worker.ts', import.meta.url), {
        type: 'module',
        name: 'compare-diffs',
      }) as unknown as DiffPort),
);
