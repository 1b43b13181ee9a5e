/**
 * SandboxManager: owns every sandbox container of this app instance.
 *
 * - One sandbox per session, created on first use (or pre-warmed) through
 *   `session.use`, so every run and flow step of the session shares it; the session's
 *   close removes it, and `dispose()` (app quit, CLI interrupt) removes whatever is left.
 * - Containers carry the app's label, this instance's id, the owner process and the
 *   session id. At start-up `sweepOrphans()` removes containers whose owner is gone
 *   (a crashed or SIGKILLed instance), never those of another live instance.
 * - The image is ensured before use, with pull progress as `sandbox.changed` events.
 * - A sandbox whose container died, or whose settings changed, is recreated on next use.
 */
import type { SandboxChangedEvent } from '@shared/events';
import { sandboxSchema, type SandboxSettings } from '../config/schema';
import type { Session } from '../session/session';
import { abortError, raceAbort } from '../util/abort';
import {
  LABELS,
  buildContainerSpec,
  parseMemory,
  isUnknownTmpfsOption,
  type TmpfsOwnerOption,
  policyHash,
  sandboxUser,
  type OwnerLabels,
  type SandboxUser,
} from './container-policy';
import { LazyDockerEngine } from './lazy-engine';
import type { ContainerEngine } from './engine';
import { EnginePool, type EngineFactory, type PoolMember } from './engine-pool';
import { summarizeAnswers, type EngineProbe } from './engine-probe';
import type { EngineEntry } from '../config/engine-address';
import { SandboxError } from './errors';
import { ensureImage } from './image';
import { currentOwner, ownerVerdict } from './owner';
import { Sandbox } from './sandbox';
import { prepareWorkspace, sandboxUserFor } from './workspace-mount';
import { seedUnsharedWorkspace } from './workspace-seed';
import { SandboxSlots, containerCap, queuedText } from './sandbox-slots';

/** How long `dispose` waits for a running orphan sweep before cutting it short. */
const SWEEP_GRACE_MS = 5_000;

/** The key of the sandbox among a session's resources. */
export const SANDBOX_RESOURCE = 'sandbox';

export type SandboxListener = (event: SandboxChangedEvent) => void;

export interface SandboxManagerOptions {
  /** the engine when `[sandbox] engines` is empty; default: DOCKER_HOST, else the local socket */
  engine?: ContainerEngine;
  /** makes the engines `[sandbox] engines` lists (tests may wrap them) */
  engineFactory?: EngineFactory;
  owner?: OwnerLabels;
  user?: SandboxUser;
}

export interface SweepResult {
  removed: string[];
  /** containers of other live instances (or other machines) left alone */
  kept: string[];
}

export class SandboxManager {
  readonly owner: OwnerLabels;
  /** every engine in use, as one: container calls go to the engine that has the container */
  readonly engine: EnginePool;
  private readonly user: SandboxUser;
  private readonly live = new Set<Sandbox>();
  /** containers created but not yet handed out, so dispose can remove them too */
  private readonly creating = new Set<string>();
  /** removals that failed (engine down); retried on the next contact and at dispose */
  private readonly pendingRemovals = new Set<string>();
  private readonly watchers = new Map<string, Set<SandboxListener>>();
  private readonly lastStatus = new Map<string, SandboxChangedEvent>();
  private readonly lifetime = new AbortController();
  private sweep: Promise<SweepResult> | null = null;
  private isDisposed = false;
  /** how each engine makes /tmp the sandbox user's (learnt at its first creation) */
  private readonly tmpfsOwners = new Map<PoolMember, TmpfsOwnerOption>();
  /** engines whose orphans were swept (the default one by `startSweep`) */
  private readonly swept = new Map<PoolMember, Promise<unknown>>();
  /** `[sandbox] max_containers`: the cap and the queue of sessions waiting for a slot */
  private readonly slots: SandboxSlots;
  /** warm spares handed to a run whose `ready` the run has not seen yet (`announceAdopted`) */
  private readonly adopted = new Set<string>();

  constructor(options: SandboxManagerOptions = {}) {
    // dockerode loads on first use (lazy-engine.ts): a run without the sandbox never loads it
    this.engine = new EnginePool(
      options.engine ?? new LazyDockerEngine(),
      options.engineFactory ?? ((address) => new LazyDockerEngine({ address })),
    );
    this.owner = options.owner ?? currentOwner();
    this.user = options.user ?? sandboxUser();
    this.slots = new SandboxSlots(
      {
        isBusy: (sessionId) => [...this.live].some((s) => s.sessionId === sessionId && s.isBusy),
        evict: (session) => session.release(SANDBOX_RESOURCE),
      },
      sandboxSchema.parse({}).max_containers,
    );
  }

  /** Sandboxes of this app now (created or being created). */
  get containersInUse(): number {
    return this.slots.inUse;
  }

  /**
   * A run uses the session's sandbox until the returned function is called: its sandbox is
   * not taken for another session waiting for a slot meanwhile.
   */
  lease(sessionId: string): () => void {
    return this.slots.lease(sessionId);
  }

  /** Starts the orphan sweep in the background (at runtime start); errors are kept quiet. */
  startSweep(): Promise<SweepResult> {
    if (!this.sweep) {
      for (const member of this.engine.list) this.swept.set(member, Promise.resolve());
      this.sweep = this.sweepOrphans({ signal: this.lifetime.signal }).catch(() => ({
        removed: [],
        kept: [],
      }));
    }
    return this.sweep;
  }

  /** An engine added to `[sandbox] engines` later is swept before its first sandbox. */
  private async sweepOnce(member: PoolMember, signal: AbortSignal): Promise<void> {
    let sweep = this.swept.get(member);
    if (!sweep) {
      sweep = this.sweepOrphans({ signal, member }).catch(() => undefined);
      this.swept.set(member, sweep);
    }
    await sweep;
  }

  /** Removes managed containers whose owning instance is gone (crash, SIGKILL). */
  async sweepOrphans(
    options: { signal?: AbortSignal; member?: PoolMember } = {},
  ): Promise<SweepResult> {
    const labels = { [LABELS.managed]: 'true' };
    const containers = options.member
      ? await this.engine.listOn(options.member, labels, options)
      : await this.engine.listContainers(labels, options);
    const result: SweepResult = { removed: [], kept: [] };
    for (const container of containers) {
      const verdict = ownerVerdict(container.labels, this.owner);
      if (verdict !== 'gone') {
        if (verdict !== 'self') result.kept.push(container.id);
        continue;
      }
      await this.engine.removeContainer(container.id, options);
      result.removed.push(container.id);
    }
    return result;
  }

  /**
   * The session's sandbox, created on first use. Waiting is abortable; the creation
   * itself continues (bounded by the manager's lifetime) so the next call finds it ready.
   */
  async acquire(
    session: Session,
    settings: SandboxSettings,
    options: { signal?: AbortSignal } = {},
  ): Promise<Sandbox> {
    if (!settings.use_sandbox) {
      throw new SandboxError(
        'sandbox_disabled',
        'The sandbox is turned off ([sandbox] use_sandbox = false in config.toml), and code ' +
          'and shell tools never run on your machine directly. Set use_sandbox = true to use them.',
      );
    }
    this.engine.configure(settings.engines);
    const wanted = policyHash({ settings, user: sandboxUserFor(session, this.user) });
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.isDisposed) throw new SandboxError('internal', 'The app is shutting down');
      if (!session.has(SANDBOX_RESOURCE)) {
        // Beyond [sandbox] max_containers the session waits for a slot (cancellable).
        await this.slots.reserve(session, containerCap(settings), options.signal, (place) =>
          this.publish(session.id, {
            type: 'sandbox.changed',
            status: 'queued',
            image: settings.image,
            progress: queuedText(place),
          }),
        );
      }
      let sandbox: Sandbox;
      try {
        sandbox = await raceAbort(
          session.use(SANDBOX_RESOURCE, () => this.create(session, settings)),
          options.signal,
        );
      } catch (error) {
        // A spare that failed to start after a run took it: the run starts its own, as
        // without the pool (the failure, if it is the engine's, comes again then).
        if (!this.adopted.delete(session.id) || options.signal?.aborted) throw error;
        continue;
      }
      const isStale = sandbox.policy !== wanted && !sandbox.isBusy;
      if (!sandbox.isGone && !isStale) {
        this.announceAdopted(session.id, sandbox, settings);
        return sandbox;
      }
      this.adopted.delete(session.id);
      await session.release(SANDBOX_RESOURCE).catch(() => undefined);
    }
    throw new SandboxError('internal', 'The sandbox could not be created; see the error above');
  }

  /**
   * Starts the session's sandbox ahead of any run (a batch's warm pool, warm-pool.ts):
   * the very creation `acquire` does (same policy, user, labels, plus the pool's label),
   * but only in a slot free now with `keepFree` more left over, never queued, and only on
   * the local engine (the run's files are copied into the bound folder after the start,
   * which an engine on another machine would not see). Null when it is not started; the
   * slot is taken before this returns, so successive calls see each other's.
   */
  prestart(
    session: Session,
    settings: SandboxSettings,
    pool: { label: string; keepFree: number },
  ): Promise<Sandbox> | null {
    if (!settings.use_sandbox || settings.engines.length > 0 || this.isDisposed) return null;
    this.engine.configure(settings.engines);
    if (session.has(SANDBOX_RESOURCE)) return null;
    if (!this.slots.tryReserveSpare(session, containerCap(settings), pool.keepFree)) return null;
    return session.use(SANDBOX_RESOURCE, () => this.create(session, settings, pool.label));
  }

  /** Whether the session's sandbox is being created or waits for a slot (or has none). */
  isStarting(sessionId: string): boolean {
    const status = this.lastStatus.get(sessionId)?.status;
    return status === undefined || status === 'creating' || status === 'queued';
  }

  /** Whether `prestart` would find a slot now (a pool asks before it makes a folder). */
  hasRoomForSpare(settings: SandboxSettings, keepFree: number): boolean {
    return !this.isDisposed && this.slots.hasRoomForSpare(containerCap(settings), keepFree);
  }

  /**
   * A spare started by `prestart` now belongs to the run that took its session: it holds
   * its slot as any session's sandbox, and the run hears `ready` on its first `acquire`.
   */
  adoptSpare(sessionId: string): void {
    this.slots.adoptSpare(sessionId);
    this.adopted.add(sessionId);
  }

  /** A run that took a warm spare records `ready` (with the container) as a created one does. */
  private announceAdopted(sessionId: string, sandbox: Sandbox, settings: SandboxSettings): void {
    if (!this.adopted.delete(sessionId)) return;
    this.publish(sessionId, {
      type: 'sandbox.changed',
      status: 'ready',
      containerId: sandbox.id,
      image: settings.image,
    });
  }

  /** Sends `sandbox.changed` events of a session to the listener until unsubscribed. */
  watch(sessionId: string, listener: SandboxListener): () => void {
    let set = this.watchers.get(sessionId);
    if (!set) this.watchers.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(sessionId);
    };
  }

  /** The last `sandbox.changed` of a session (for `sandbox:status`). */
  status(sessionId: string): SandboxChangedEvent | undefined {
    return this.lastStatus.get(sessionId);
  }

  /**
   * Whether an engine answers, for status views and the pre-flight; with `[sandbox]
   * engines` given, any of them (the version names each engine that answers).
   */
  async probe(
    options: { signal?: AbortSignal; timeoutMs?: number; engines?: readonly EngineEntry[] } = {},
  ): Promise<EngineProbe> {
    if (options.engines) this.engine.configure(options.engines);
    const { engines: _engines, ...callOptions } = options;
    const answers = await this.engine.pingEach(callOptions);
    options.signal?.throwIfAborted();
    return summarizeAnswers(answers);
  }

  /** Removes every container this instance still has (app quit, CLI interrupt). */
  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    // Let a start-up sweep finish (a short CLI run may end before it does), but do not
    // wait on a hung engine for long.
    if (this.sweep) {
      // A ref'd timer: dispose is awaited, and an unref'd one alone would let the process
      // exit before the command has set its exit code (issue 12 item 3).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.sweep, new Promise((r) => (timer = setTimeout(r, SWEEP_GRACE_MS)))]);
      clearTimeout(timer);
    }
    this.lifetime.abort(abortError());
    await Promise.allSettled([...this.live].map((s) => s.dispose()));
    // What is left: containers mid-creation and removals that failed (also just now).
    const left = [...new Set([...this.creating, ...this.pendingRemovals])];
    const results = await Promise.allSettled(left.map((id) => this.engine.removeContainer(id)));
    this.live.clear();
    this.creating.clear();
    this.pendingRemovals.clear();
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) {
      throw new AggregateError(
        failed.map((f) => f.reason as unknown),
        `${failed.length} sandbox container(s) could not be removed; the next start removes them`,
      );
    }
  }

  private async create(
    session: Session,
    settings: SandboxSettings,
    warmPool?: string,
  ): Promise<Sandbox> {
    const signal = this.lifetime.signal;
    const notify = (update: Omit<SandboxChangedEvent, 'type' | 'image'>) =>
      this.publish(session.id, { type: 'sandbox.changed', image: settings.image, ...update });
    notify({ status: 'creating' });
    let containerId: string | undefined;
    try {
      await this.startSweep();
      const member = await this.engine.place(
        { cpus: settings.cpu_limit, memoryBytes: parseMemory(settings.memory_limit) },
        { signal },
      );
      await this.sweepOnce(member, signal);
      const target = member.engine;
      const engine = await target.ping({ signal });
      if (warmPool !== undefined && !engine.isLocal) {
        throw new SandboxError('internal', 'A warm pool starts sandboxes on the local engine only');
      }
      await this.retryPendingRemovals();
      await ensureImage(
        target,
        settings.image,
        (progress) => notify({ status: 'creating', progress: progress.text }),
        { signal },
      );
      if (!session.isUserFolder) prepareWorkspace(session.workspaceDir, engine, this.user);
      const user = sandboxUserFor(session, this.user);
      const specFor = (tmpfsOwner: TmpfsOwnerOption) =>
        buildContainerSpec({
          settings,
          sessionId: session.id,
          workspaceDir: session.workspaceDir,
          user,
          owner: this.owner,
          tmpfsOwner,
          ...(warmPool !== undefined ? { warmPool } : {}),
        });
      const tried = this.tmpfsOwners.get(member) ?? 'uid';
      let spec = specFor(tried);
      try {
        containerId = await target.createContainer(spec, { signal });
      } catch (error) {
        // Feature detection by the engine's own answer, not its name: an engine that
        // refuses the tmpfs uid= option (Podman) gets `U`, now and for every later sandbox.
        // What this attempt sent decides, not the shared flag: sandboxes created at once
        // all try `uid=`, and the first refusal flips the flag before the others' come back.
        if (tried !== 'uid' || !isUnknownTmpfsOption(error)) throw error;
        this.tmpfsOwners.set(member, 'U');
        spec = specFor('U');
        containerId = await target.createContainer(spec, { signal });
      }
      this.engine.adopt(containerId, member);
      this.creating.add(containerId);
      await this.engine.startContainer(containerId, { signal });
      if (!engine.isLocal && !session.isUserFolder) {
        // an engine on another machine may not see the session's folder (workspace-seed.ts)
        const seedTarget = { engine: this.engine, containerId, workDir: settings.work_dir, user };
        await seedUnsharedWorkspace(seedTarget, session.workspaceDir, { signal });
      }
      if (this.isDisposed) throw new SandboxError('internal', 'The app is shutting down');
      const sandbox = new Sandbox({
        engine: this.engine,
        containerId,
        sessionId: session.id,
        settings,
        user,
        policy: spec.Labels[LABELS.policy] ?? '',
        notify,
        onDisposed: (s, isRemoved) => {
          this.live.delete(s);
          this.adopted.delete(s.sessionId);
          this.slots.free(s.sessionId);
          if (!isRemoved) this.pendingRemovals.add(s.id);
        },
      });
      this.live.add(sandbox);
      this.creating.delete(containerId);
      // a run that took this spare while it started hears this `ready` itself
      if (this.watchers.has(session.id)) this.adopted.delete(session.id);
      notify({
        status: 'ready',
        containerId,
        ...(this.engine.list.length > 1 ? { engine: engine.endpoint } : {}),
      });
      return sandbox;
    } catch (error) {
      if (containerId !== undefined) {
        const id = containerId;
        this.creating.delete(id);
        await this.engine.removeContainer(id).catch(() => this.pendingRemovals.add(id));
      }
      this.slots.free(session.id);
      const message = error instanceof Error ? error.message : String(error);
      notify({
        status: 'failed',
        error: message,
        ...(error instanceof SandboxError ? { reason: error.kind } : {}),
      });
      throw error;
    }
  }

  /** The user the session's sandbox runs as (see `sandboxUser`). */
  get defaultUser(): SandboxUser {
    return this.user;
  }

  private async retryPendingRemovals(): Promise<void> {
    for (const id of [...this.pendingRemovals]) {
      await this.engine
        .removeContainer(id)
        .then(() => this.pendingRemovals.delete(id))
        .catch(() => undefined);
    }
  }

  private publish(sessionId: string, event: SandboxChangedEvent): void {
    this.lastStatus.set(sessionId, event);
    for (const listener of this.watchers.get(sessionId) ?? []) {
      try {
        listener(event);
      } catch {
        // One broken listener must not stop the others or the sandbox.
      }
    }
  }
}
