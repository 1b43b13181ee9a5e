/**
 * At most `[sandbox] max_containers` sandboxes of this app at once (issue 12 item 6:
 * 12 sessions made 12 containers). A session that needs a container beyond the cap
 * waits in a first-come, first-served queue (its runs see `sandbox.changed` with status
 * `queued` and their place), and the wait ends with the run's stop.
 *
 * A sandbox holds its slot until it is removed. So that a finished session cannot hold
 * one for ever, a session waiting for a slot takes one from an idle sandbox: no run is
 * using it (runs take a lease while they last) and no command runs in it. The least
 * recently used goes first; its workspace folder stays, and a later run of that session
 * gets a new container.
 */
import type { SandboxSettings } from '../config/schema';
import type { Session } from '../session/session';
import { raceAbort } from '../util/abort';
import { SlotQueue, type QueuePosition, type Slot } from '../util/slot-queue';

/** What the slots need to know about the sandboxes they count. */
export interface SlotOwner {
  /** a command runs in the session's sandbox */
  isBusy(sessionId: string): boolean;
  /** removes the session's sandbox (its slot comes back through `free`) */
  evict(session: Session): Promise<void>;
}

interface PendingReservation {
  done: Promise<void>;
  controller: AbortController;
  waiters: number;
}

export class SandboxSlots {
  private readonly queue: SlotQueue;
  private readonly held = new Map<
    string,
    { slot: Slot; session: Session; lastUsed: number; isSpare?: boolean }
  >();
  private readonly pending = new Map<string, PendingReservation>();
  private readonly leases = new Map<string, number>();
  private isEvicting = false;

  constructor(
    private readonly owner: SlotOwner,
    capacity: number,
  ) {
    this.queue = new SlotQueue(capacity);
  }

  get inUse(): number {
    return this.queue.used;
  }

  /**
   * Makes sure the session holds a slot, waiting for one if all are taken. Concurrent
   * callers of one session share the wait; it is given up when all of them abort.
   */
  async reserve(
    session: Session,
    capacity: number,
    signal: AbortSignal | undefined,
    onQueued: (position: QueuePosition) => void,
  ): Promise<void> {
    this.queue.setCapacity(capacity);
    if (this.held.has(session.id)) return;
    let pending = this.pending.get(session.id);
    if (!pending) pending = this.startReservation(session, onQueued);
    pending.waiters++;
    const leave = () => {
      if (--(pending as PendingReservation).waiters === 0)
        pending?.controller.abort(signal?.reason);
    };
    signal?.addEventListener('abort', leave, { once: true });
    try {
      // A caller that stops leaves at once, even while others of its session still wait.
      await raceAbort(pending.done, signal);
    } finally {
      signal?.removeEventListener('abort', leave);
      if (!signal?.aborted) pending.waiters--;
    }
  }

  /**
   * A slot for a warm pool's spare sandbox (warm-pool.ts), only if one is free now
   * with `keepFree` more left for sessions about to need theirs, and nobody waits: a spare
   * never queues. Spares are the first taken back when a session waits (`evictIdle`).
   */
  tryReserveSpare(session: Session, capacity: number, keepFree: number): boolean {
    this.queue.setCapacity(capacity);
    if (this.held.has(session.id) || this.pending.has(session.id)) return false;
    const slot = this.queue.tryAcquire(keepFree);
    if (!slot) return false;
    this.held.set(session.id, { slot, session, lastUsed: Date.now(), isSpare: true });
    return true;
  }

  /** Whether `tryReserveSpare` would give a slot now (nothing is taken). */
  hasRoomForSpare(capacity: number, keepFree: number): boolean {
    this.queue.setCapacity(capacity);
    return this.queue.hasRoom(keepFree);
  }

  /** A spare was handed to a run: from now on it counts as that run's sandbox. */
  adoptSpare(sessionId: string): void {
    const held = this.held.get(sessionId);
    if (held) held.isSpare = false;
  }

  /** The session's sandbox is gone: its slot goes to the next waiter. */
  free(sessionId: string): void {
    const held = this.held.get(sessionId);
    this.held.delete(sessionId);
    held?.slot.release();
  }

  /** A run uses the session's sandbox until the returned function is called. */
  lease(sessionId: string): () => void {
    this.leases.set(sessionId, (this.leases.get(sessionId) ?? 0) + 1);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      const left = (this.leases.get(sessionId) ?? 1) - 1;
      if (left > 0) this.leases.set(sessionId, left);
      else this.leases.delete(sessionId);
      const held = this.held.get(sessionId);
      if (held) held.lastUsed = Date.now();
      // Someone may be waiting for exactly this.
      if (this.queue.waiting > 0) void this.evictIdle();
    };
  }

  private startReservation(
    session: Session,
    onQueued: (position: QueuePosition) => void,
  ): PendingReservation {
    const controller = new AbortController();
    const done = this.queue
      .acquire({
        signal: controller.signal,
        onQueued: (position) => {
          onQueued(position);
          if (position.ahead === 0) void this.evictIdle();
        },
      })
      .then((slot) => {
        this.held.set(session.id, { slot, session, lastUsed: Date.now() });
      })
      .finally(() => this.pending.delete(session.id));
    const pending: PendingReservation = { done, controller, waiters: 0 };
    this.pending.set(session.id, pending);
    // Nobody may be left to await it when every caller aborted.
    done.catch(() => undefined);
    return pending;
  }

  /** Frees the slot of the least recently used idle sandbox, if there is one. */
  private async evictIdle(): Promise<void> {
    // One at a time: a waiter needs one slot, not every idle sandbox.
    if (this.isEvicting || this.queue.waiting === 0) return;
    const idle = [...this.held.entries()]
      .filter(([id]) => !this.leases.has(id) && !this.owner.isBusy(id))
      // a spare first: nobody's files or shell are lost with it
      .sort(
        (a, b) => Number(!a[1].isSpare) - Number(!b[1].isSpare) || a[1].lastUsed - b[1].lastUsed,
      )[0];
    if (!idle) return;
    this.isEvicting = true;
    try {
      await this.owner.evict(idle[1].session);
    } catch {
      // Its removal failed (engine down); the slot comes back when it is gone.
    } finally {
      this.isEvicting = false;
    }
    if (this.queue.waiting > 0 && this.queue.used >= this.queue.size) void this.evictIdle();
  }
}

/**
 * `[sandbox] max_containers`, or less when every engine of `[sandbox] engines` has its own
 * cap: beyond their sum a session waits for a slot rather than failing to find an engine.
 */
export function containerCap(settings: SandboxSettings): number {
  const caps = settings.engines.map((entry) => entry.max_containers);
  if (caps.length === 0 || caps.some((cap) => cap === undefined)) return settings.max_containers;
  const sum = caps.reduce<number>((total, cap) => total + (cap ?? 0), 0);
  return Math.min(settings.max_containers, sum);
}

export function queuedText(place: QueuePosition): string {
  const ahead = place.ahead === 0 ? 'next in line' : `${place.ahead} ahead`;
  return (
    `waiting for a free sandbox: ${place.inUse} of ${place.capacity} in use ` +
    `([sandbox] max_containers); ${ahead}`
  );
}
