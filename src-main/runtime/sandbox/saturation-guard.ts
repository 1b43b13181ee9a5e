/**
 * Notices a sandbox whose process table is full (a fork bomb, a runaway server farm) and
 * restarts it (reliability.md S2). The pids limit protects the host; this gives the agent
 * a working sandbox back, and says so.
 *
 * Issue 12 item 4: the check ran only after suspicious commands, but a bomb started in
 * the background returns at once with exit 0 and fills the table a moment later; it was
 * found in 48 of 119 such runs, and the next call stalled for 20 s. Measured with
 * `docker top` after `:(){ :|:& };: &` (limit 256): 5 processes at 87 ms, 254 at 167 ms;
 * near the limit the count wanders (163-254) as forks fail and bomb processes exit.
 * So after every call:
 * - the processes are counted at once (`docker top`, ~20 ms, needs no free slot in the
 *   container); a count past half the limit is counted again a few times, and any count
 *   at 90 % of the limit means full; still suspect, the pids cgroup is asked (`docker
 *   stats`, exact but ~0.8 s). Full: the sandbox is restarted, the call's result says so;
 * - otherwise the same look is taken again half a second after the latest call, in the
 *   background; a restart then is reported with the next call;
 * - a call waits for a look under way, and one that comes more than a second after the
 *   last look is preceded by one (a bomb that went off later: `sleep 5; bomb &`).
 */
import { delay } from './one-shot-exec';

/** Share of the pids limit that counts as full (the count wanders just below the limit). */
const FULL_SHARE = 0.9;
/** The cgroup's count is exact: full is the limit but for the engine's own helpers. */
const PIDS_HEADROOM = 4;
/** Past this share a count is taken again: a bomb fills the rest, a busy workload does not. */
const SUSPECT_SHARE = 0.5;
const RECOUNTS = 3;
const RECOUNT_MS = 200;
const FOLLOW_UP_MS = 500;
/** A background look that finds this share or more looks again, up to FOLLOW_UPS times. */
const BUSY_SHARE = 0.1;
const FOLLOW_UPS = 4;
const PRECHECK_INTERVAL_MS = 1_000;

export interface SaturationTarget {
  readonly pidsLimit: number;
  /** processes in the container now (fast), null when the engine does not say */
  countProcesses(): Promise<number | null>;
  /** what the pids limit counts (exact, slow): asked only when the fast count is suspect */
  countLimited(): Promise<number | null>;
  /** kills every process (same workspace, fresh /tmp) */
  restart(): Promise<void>;
  /** false once the sandbox is gone: no more looks */
  isAlive(): boolean;
  /** a call is under way (its own look after it will do) */
  isBusy(): boolean;
}

/**
 * A running container always has a process: a listing that is missing or empty says
 * nothing. Seen on dockerd 20.10 (both the local socket and TLS over TCP) while a bomb
 * kept the pids cgroup full: `docker top` answered `{"Processes": null}` about one time
 * in three, and a guard that took that as "no processes" missed the bomb.
 */
function isBlind(pids: number | null): pids is null | 0 {
  return pids === null || pids === 0;
}

export class SaturationGuard {
  private lastCheck = 0;
  private lastCount: number | null = null;
  /** the background look after the last call, not started yet */
  private followUpTimer: NodeJS.Timeout | null = null;
  /** a look under way (background or not) */
  private looking: Promise<boolean> | null = null;
  private pendingNote: string | null = null;

  constructor(private readonly target: SaturationTarget) {}

  /** The process count from which the sandbox counts as full. */
  get full(): number {
    return Math.floor(this.target.pidsLimit * FULL_SHARE);
  }

  /**
   * Before a call: waits for a look under way, and looks again when the last look is
   * old. Returns what was done since the last call (a restart), or null; the note stays
   * for the coming call's result too.
   */
  async beforeCall(): Promise<string | null> {
    await this.looking;
    if (!this.pendingNote && Date.now() - this.lastCheck >= PRECHECK_INTERVAL_MS) {
      await this.look();
    }
    return this.pendingNote;
  }

  /** After a call; `isKnownFull` when the call itself saw the table full. */
  async afterCall(isKnownFull = false): Promise<string | null> {
    await this.looking;
    const isFull = isKnownFull ? await this.restart() : await this.look();
    if (!isFull) this.scheduleFollowUp();
    return this.takeNote();
  }

  /** No more looks (the sandbox is being removed). */
  dispose(): void {
    if (this.followUpTimer) clearTimeout(this.followUpTimer);
    this.followUpTimer = null;
  }

  /**
   * One look half a second after the latest call (a quick series of calls moves it on).
   * Nothing waits for the timer itself, so it does not keep the process alive.
   */
  private scheduleFollowUp(remaining = FOLLOW_UPS): void {
    this.dispose();
    if (!this.target.isAlive()) return;
    this.followUpTimer = setTimeout(() => {
      this.followUpTimer = null;
      // A call under way looks when it ends; restarting under it would break it.
      if (!this.target.isAlive() || this.target.isBusy()) return;
      void this.look().then(
        (isFull) => {
          // Many processes, not (yet) full: a bomb on a slow machine; look again soon.
          const isBusy = (this.lastCount ?? 0) >= this.target.pidsLimit * BUSY_SHARE;
          if (!isFull && isBusy && remaining > 1) this.scheduleFollowUp(remaining - 1);
        },
        () => undefined,
      );
    }, FOLLOW_UP_MS);
    this.followUpTimer.unref?.();
  }

  /** Counts (and counts again when suspect); restarts a full sandbox. */
  private look(): Promise<boolean> {
    // One look at a time: two at once would both see the bomb and restart twice.
    if (this.looking) return this.looking;
    const look = this.countAndRestart().finally(() => {
      if (this.looking === look) this.looking = null;
    });
    this.looking = look;
    return look;
  }

  private async countAndRestart(): Promise<boolean> {
    this.lastCheck = Date.now();
    const count = () => this.target.countProcesses().catch(() => null);
    let pids = await count();
    this.lastCount = pids;
    for (let i = 0; i < RECOUNTS && !isBlind(pids) && pids < this.full; i++) {
      if (pids < this.target.pidsLimit * SUSPECT_SHARE) return false;
      await delay(RECOUNT_MS);
      pids = await count();
    }
    if (isBlind(pids) || pids < this.full) {
      // Still suspect, or the listing said nothing: the listing misses processes being
      // born and dying, the cgroup does not. Full there is what stops every new process.
      const limited = await this.target.countLimited().catch(() => null);
      if (limited === null || limited < this.target.pidsLimit - PIDS_HEADROOM) return false;
    }
    return this.restart();
  }

  private async restart(): Promise<boolean> {
    this.dispose(); // a look planned before the restart has nothing left to find
    await this.target.restart();
    this.lastCheck = Date.now();
    this.pendingNote =
      `The sandbox reached its process limit (${this.target.pidsLimit} processes, ` +
      '[sandbox] pids_limit), for example through a fork bomb. It was restarted: all its ' +
      'processes were stopped and /tmp was cleared; files in the workspace are kept.';
    return true;
  }

  private takeNote(): string | null {
    const note = this.pendingNote;
    this.pendingNote = null;
    return note;
  }
}
