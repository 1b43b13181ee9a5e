/**
 * A fixed number of slots and a first-come, first-served queue for them: the sandbox cap
 * (`[sandbox] max_containers`, issue 12 item 6) and, later, batch scheduling use it. A
 * waiter can be cancelled (its signal): it leaves the queue at once and those behind it
 * move up. Waiters hear their place whenever it changes, so a UI can say "2 ahead".
 */
import { abortError } from './abort';

export interface Slot {
  /** gives the slot back (idempotent); the first waiter gets it */
  release(): void;
}

export interface QueuePosition {
  /** waiters ahead of this one */
  ahead: number;
  inUse: number;
  capacity: number;
}

export interface SlotRequest {
  signal?: AbortSignal;
  /** called when the request has to wait, and again each time its place changes */
  onQueued?: (position: QueuePosition) => void;
}

interface Waiter {
  grant: (slot: Slot) => void;
  onQueued?: (position: QueuePosition) => void;
}

export class SlotQueue {
  private inUse = 0;
  private readonly waiters: Waiter[] = [];

  constructor(private capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new Error(`A slot queue needs at least one slot (got ${capacity})`);
    }
  }

  get used(): number {
    return this.inUse;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  get size(): number {
    return this.capacity;
  }

  /** A new capacity (settings changed); slots in use above it are kept until released. */
  setCapacity(capacity: number): void {
    if (!Number.isInteger(capacity) || capacity < 1) return;
    this.capacity = capacity;
    this.grantFree();
  }

  /** A slot now, or when one is released; rejects with CancelledError on abort. */
  acquire(request: SlotRequest = {}): Promise<Slot> {
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.waiters.length === 0 && this.inUse < this.capacity) {
      this.inUse++;
      return Promise.resolve(this.newSlot());
    }
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index < 0) return;
        this.waiters.splice(index, 1);
        reject(abortError(signal));
        this.announce(index);
      };
      const waiter: Waiter = {
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        ...(request.onQueued ? { onQueued: request.onQueued } : {}),
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.announce(this.waiters.length - 1);
    });
  }

  /**
   * A slot only if one is free with `keepFree` more left over and nobody waiting; never
   * queues (a warm pool's spare must not take a place in line before a session).
   */
  tryAcquire(keepFree = 0): Slot | null {
    if (!this.hasRoom(keepFree)) return null;
    this.inUse++;
    return this.newSlot();
  }

  /** Whether `tryAcquire(keepFree)` would give a slot now. */
  hasRoom(keepFree = 0): boolean {
    return this.waiters.length === 0 && this.inUse + keepFree < this.capacity;
  }

  private newSlot(): Slot {
    let isReleased = false;
    return {
      release: () => {
        if (isReleased) return;
        isReleased = true;
        this.inUse--;
        this.grantFree();
      },
    };
  }

  private grantFree(): void {
    let granted = 0;
    while (this.inUse < this.capacity && this.waiters.length > 0) {
      const next = this.waiters.shift() as Waiter;
      this.inUse++;
      granted++;
      next.grant(this.newSlot());
    }
    if (granted > 0) this.announce(0);
  }

  /** Tells waiters from `from` on where they stand now. */
  private announce(from: number): void {
    for (let i = from; i < this.waiters.length; i++) {
      const waiter = this.waiters[i] as Waiter;
      try {
        waiter.onQueued?.({ ahead: i, inUse: this.inUse, capacity: this.capacity });
      } catch {
        // a listener's failure must not stall the queue
      }
    }
  }
}
