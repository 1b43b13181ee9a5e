/**
 * A batch's warm sandbox pool (issue 27): sandboxes started ahead of the runs that will
 * use them, so a run's sandbox is ready when its agent first asks instead of after a
 * container start (0.3 s at c = 1, seconds under load).
 *
 * A container binds its workspace folder and carries its session's label from creation
 * on (container-policy.ts), so a spare cannot be started for a run whose session is not
 * known yet. The pool therefore chooses the session: each spare is an ordinary session of
 * its own (`<batchId>-warm-<id>`, its empty folder `workspaces/<id>`), started through
 * `SandboxManager.prestart` (the same creation, policy and owner labels as any sandbox,
 * plus `agent-workbench.warm-pool=<batchId>`). A run that takes a spare runs in that
 * session: its recorded session id is the container's session label and its workspace is
 * the bound folder, exactly as for a session it had named itself; a task's files are
 * copied into that folder before the agent starts (launch/run-session.ts).
 *
 * Bounds: at most `target` spares (the batch's concurrency, never more than its runs not
 * yet started), each in a `[sandbox] max_containers` slot that is free now; a spare never
 * queues, and is the first sandbox taken back when any session waits for a slot. None
 * starts while a live run of the batch waits for its own sandbox (a run that has not asked
 * yet counts as waiting): spares never compete with a run's container start nor take the
 * slot it is about to need. The pool starts only once a run of the batch has used its
 * sandbox (a batch whose agent has no sandbox tools never starts one), and stops after a
 * spare fails to start. A run takes a ready spare, else one still starting (nearer ready
 * than a container not begun); if that one fails, the run starts its own.
 *
 * Cleanup: `close` (the batch ended or was stopped, or the app quits) removes the spares'
 * containers and folders. While a spare waits, a marker `warm-pool/<session>.json` names
 * its owner process (the labels the container has); a process that dies leaves the
 * containers to the orphan sweep (their owner labels) and the folders to
 * `sweepWarmPoolFolders` at the next start.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWarmPoolSessionId, warmPoolSessionId } from '@shared/domain/ids';
import type { SandboxSettings } from '../config/schema';
import { LABELS, type OwnerLabels } from './container-policy';
import { ownerVerdict } from './owner';
import type { Sandbox } from './sandbox';
import { SANDBOX_RESOURCE, type SandboxManager } from './sandbox-manager';
import type { SessionRegistry } from '../session/session';

export interface WarmPoolDeps {
  sandboxes: SandboxManager;
  sessions: SessionRegistry;
  workspacesDir: string;
  /** where the markers of waiting spares are kept (`<home>/warm-pool`) */
  markersDir: string;
  /** `[sandbox]` as the runs will read it; undefined when the config does not load */
  settings(): SandboxSettings | undefined;
}

interface Spare {
  sessionId: string;
  sandbox: Sandbox | null;
  started: Promise<void>;
}

/** (the batch runner's `BatchWarmPool`, batch/batch-warm-pool.ts) */
export class WarmPool {
  private readonly spares = new Map<string, Spare>();
  private isWanted = false;
  private isClosed = false;
  private isBroken = false;

  constructor(
    private readonly deps: WarmPoolDeps,
    readonly batchId: string,
  ) {}

  /** Spares started or starting now (for tests and the bench). */
  get size(): number {
    return this.spares.size;
  }

  /** A run of the batch used its sandbox: the next runs will want one too. */
  demand(): void {
    this.isWanted = true;
  }

  /** Starts spares up to `target`, leaving a slot for each live session without a sandbox. */
  fill(target: number, liveSessions: readonly string[]): void {
    if (!this.isWanted || this.isClosed || this.isBroken || this.spares.size >= target) return;
    const settings = this.deps.settings();
    if (!settings?.use_sandbox) return;
    // Spares never compete with a run's own sandbox: none starts while one of the batch's
    // runs waits for its own (the engine starts containers slower the more start at once).
    if (liveSessions.some((id) => this.deps.sandboxes.isStarting(id))) return;
    // (and a slot is left for a live run whose sandbox is gone, for when it asks again)
    const keepFree = liveSessions.filter(
      (id) => !this.deps.sessions.get(id)?.has(SANDBOX_RESOURCE),
    ).length;
    while (this.spares.size < target) {
      if (!this.deps.sandboxes.hasRoomForSpare(settings, keepFree)) return;
      const sessionId = warmPoolSessionId(this.batchId, randomUUID().slice(0, 8));
      const session = this.deps.sessions.open(sessionId);
      this.writeMarker(sessionId);
      const starting = this.deps.sandboxes.prestart(session, settings, {
        label: this.batchId,
        keepFree,
      });
      if (!starting) {
        void this.discard(sessionId);
        return;
      }
      const spare: Spare = { sessionId, sandbox: null, started: Promise.resolve() };
      spare.started = starting.then(
        (sandbox) => void (spare.sandbox = sandbox),
        (error: unknown) => {
          // Quietly: the run creates its own sandbox as without a pool, and says why if it fails.
          this.isBroken = true;
          this.spares.delete(sessionId);
          void this.discard(sessionId);
          if (!this.isClosed) {
            console.error(`[workbench] batch ${this.batchId}: warm pool stopped: ${String(error)}`);
          }
        },
      );
      this.spares.set(sessionId, spare);
    }
  }

  /** A started spare for the next run (its session, and the run's lease on it), if one is ready. */
  take(): { sessionId: string; release: () => void } | undefined {
    if (this.isClosed) return undefined;
    // a ready one first; else one still starting is nearer ready than a container not begun
    const spares = [...this.spares.values()].sort(
      (a, b) => Number(a.sandbox === null) - Number(b.sandbox === null),
    );
    for (const spare of spares) {
      this.spares.delete(spare.sessionId);
      const session = this.deps.sessions.get(spare.sessionId);
      // taken back for a session that waited for a slot, or the container died
      if (!session?.has(SANDBOX_RESOURCE) || spare.sandbox?.isGone) {
        void this.discard(spare.sessionId);
        continue;
      }
      // held from now on: never taken back for another session while the run lasts
      const release = this.deps.sandboxes.lease(spare.sessionId);
      this.deps.sandboxes.adoptSpare(spare.sessionId);
      rmSync(this.markerPath(spare.sessionId), { force: true });
      return { sessionId: spare.sessionId, release };
    }
    return undefined;
  }

  /** Removes every spare not taken: containers, folders, markers. */
  async close(): Promise<void> {
    this.isClosed = true;
    const left = [...this.spares.values()];
    this.spares.clear();
    await Promise.allSettled(
      left.map(async (spare) => {
        await spare.started;
        await this.discard(spare.sessionId);
      }),
    );
  }

  /** Removes a spare's container (through its session), folder and marker. */
  private async discard(sessionId: string): Promise<void> {
    try {
      await this.deps.sessions.close(sessionId);
    } finally {
      // the folder only when its container is gone (or the orphan sweep will see to it)
      rmSync(join(this.deps.workspacesDir, sessionId), { recursive: true, force: true });
      rmSync(this.markerPath(sessionId), { force: true });
    }
  }

  private writeMarker(sessionId: string): void {
    const owner = this.deps.sandboxes.owner;
    mkdirSync(this.deps.markersDir, { recursive: true });
    writeFileSync(this.markerPath(sessionId), JSON.stringify(ownerLabels(owner, this.batchId)));
  }

  private markerPath(sessionId: string): string {
    return join(this.deps.markersDir, `${sessionId}.json`);
  }
}

function ownerLabels(owner: OwnerLabels, batchId: string): Record<string, string> {
  return {
    [LABELS.instance]: owner.instanceId,
    [LABELS.host]: owner.host,
    [LABELS.pid]: String(owner.pid),
    [LABELS.pidStart]: owner.pidStart,
    [LABELS.warmPool]: batchId,
  };
}

/**
 * The folders of spares a process left when it died (their markers name a process that
 * is gone, as the container sweep decides: owner.ts); returns the folders removed.
 */
export function sweepWarmPoolFolders(
  markersDir: string,
  workspacesDir: string,
  self: OwnerLabels,
): string[] {
  let names: string[];
  try {
    names = readdirSync(markersDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const sessionId = name.replace(/\.json$/, '');
    if (!name.endsWith('.json') || !isWarmPoolSessionId(sessionId)) {
      continue;
    }
    let labels: Record<string, string>;
    try {
      labels = JSON.parse(readFileSync(join(markersDir, name), 'utf8')) as Record<string, string>;
    } catch {
      continue; // being written, or not ours
    }
    if (ownerVerdict(labels, self) !== 'gone') continue;
    rmSync(join(workspacesDir, sessionId), { recursive: true, force: true });
    rmSync(join(markersDir, name), { force: true });
    removed.push(sessionId);
  }
  return removed;
}
