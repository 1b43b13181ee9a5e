/**
 * The engines this app's sandboxes run on (`[sandbox] engines`, issue 18 item 3), seen as
 * one engine by everything that holds a container id: each call about a container goes
 * to the engine that created it, and listings visit every engine. Only the manager asks
 * where a new sandbox goes (`place`), then creates it on that engine and `adopt`s it.
 *
 * With no engines configured the pool is the one default engine (DOCKER_HOST, else the
 * local socket) and adds nothing but a map lookup. Engines dropped from the list keep
 * serving the containers they have until those are removed.
 */
import {
  ENVIRONMENT_ENGINE,
  engineLabel,
  parseEngineAddress,
  type EngineAddress,
  type EngineEntry,
} from '../config/engine-address';
import type {
  CallOptions,
  ContainerEngine,
  ContainerSpec,
  ContainerSummary,
  EngineCapacity,
  EngineInfo,
  ExecSpec,
  ImageSummary,
  PullProgress,
} from './engine';
import type { EngineStatusRow } from '@shared/domain/settings-sections';
import { chooseEngine, type SandboxNeeds } from './engine-placement';
import { EngineUnavailableError } from './errors';

/** How long placement waits for an engine's `info` before counting it as down. */
const PLACEMENT_TIMEOUT_MS = 5_000;

export type EngineFactory = (address: EngineAddress) => ContainerEngine;

export interface EngineAnswer {
  endpoint: string;
  info?: EngineInfo;
  error?: Error;
}

export interface PoolMember {
  /** the entry's url (or DOCKER_HOST), what identifies it in the list */
  readonly key: string;
  /** how it is shown: unix:///..., tcp://host:port (TLS), ssh://... */
  readonly endpoint: string;
  readonly engine: ContainerEngine;
  maxContainers?: number;
}

export class EnginePool implements ContainerEngine {
  private members: PoolMember[];
  private readonly known = new Map<string, PoolMember>();
  /** container id -> the engine it lives on */
  private readonly owners = new Map<string, PoolMember>();
  /** this app's sandboxes per engine (created or being created) */
  private readonly placed = new Map<PoolMember, Set<string>>();
  private configuredAs = '';

  constructor(
    defaultEngine: ContainerEngine,
    private readonly factory: EngineFactory,
  ) {
    const member: PoolMember = { key: ENVIRONMENT_ENGINE, endpoint: '', engine: defaultEngine };
    this.known.set(member.key, member);
    this.members = [member];
  }

  /** The engines in use, in the order of the list. */
  get list(): readonly PoolMember[] {
    return this.members;
  }

  /**
   * Takes the `[sandbox] engines` of the settings in use (a run's); returns the members
   * that are new, so the caller can sweep their orphans first. Empty: the default engine.
   */
  configure(entries: readonly EngineEntry[]): PoolMember[] {
    const signature = JSON.stringify(entries);
    if (signature === this.configuredAs) return [];
    this.configuredAs = signature;
    const added: PoolMember[] = [];
    const wanted = entries.length > 0 ? entries : [{ url: ENVIRONMENT_ENGINE }];
    this.members = wanted.map((entry) => {
      const key = entry.url;
      let member = this.known.get(key);
      if (!member) {
        const address = parseEngineAddress(entry);
        if (typeof address === 'string') throw new EngineUnavailableError(address); // the schema checked it
        member = { key, endpoint: engineLabel(address), engine: this.factory(address) };
        this.known.set(key, member);
        added.push(member);
      }
      if (entry.max_containers === undefined) delete member.maxContainers;
      else member.maxContainers = entry.max_containers;
      return member;
    });
    return added;
  }

  /** The engine with the most free capacity for a sandbox of these limits. */
  async place(needs: SandboxNeeds, options: CallOptions = {}): Promise<PoolMember> {
    const members = this.members;
    if (members.length === 1) return members[0]!; // nothing to compare; its errors come later
    const capacities = await Promise.all(
      members.map((member) =>
        member.engine
          .capacity({ timeoutMs: PLACEMENT_TIMEOUT_MS, ...options })
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
      ),
    );
    options.signal?.throwIfAborted();
    const verdict = chooseEngine(
      members.map((member, index) => ({
        endpoint: member.endpoint || ENVIRONMENT_ENGINE,
        ...(member.maxContainers !== undefined ? { maxContainers: member.maxContainers } : {}),
        ours: this.placed.get(member)?.size ?? 0,
        capacity: capacities[index]!,
      })),
      needs,
    );
    if (verdict.index !== null) return members[verdict.index]!;
    throw new EngineUnavailableError(verdict.reason, { cause: verdict.errors[0] });
  }

  /** A container the manager created on `member`: its calls go there from now on. */
  adopt(containerId: string, member: PoolMember): void {
    this.owners.set(containerId, member);
    let set = this.placed.get(member);
    if (!set) this.placed.set(member, (set = new Set()));
    set.add(containerId);
  }

  /** The endpoint a container lives on ('' for the default engine). */
  endpointOf(containerId: string): string {
    return this.owners.get(containerId)?.endpoint ?? '';
  }

  private route(containerId: string): ContainerEngine {
    return (this.owners.get(containerId) ?? this.members[0]!).engine;
  }

  /** Each engine as Settings shows it: its answer, its machine, this app's share of it. */
  async statusEach(options?: CallOptions): Promise<EngineStatusRow[]> {
    return Promise.all(
      this.members.map(async (member): Promise<EngineStatusRow> => {
        const row: EngineStatusRow = {
          endpoint: member.endpoint || ENVIRONMENT_ENGINE,
          ours: this.placed.get(member)?.size ?? 0,
          ...(member.maxContainers !== undefined ? { maxContainers: member.maxContainers } : {}),
        };
        try {
          const [info, capacity] = await Promise.all([
            member.engine.ping(options),
            member.engine.capacity(options),
          ]);
          return { ...row, version: info.version, ...capacity };
        } catch (error) {
          return { ...row, error: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
  }

  /** Every engine's answer (or why not), in the order of the list. */
  async pingEach(options?: CallOptions): Promise<EngineAnswer[]> {
    return Promise.all(
      this.members.map((member) =>
        member.engine.ping(options).then(
          (info) => ({ endpoint: member.endpoint || info.endpoint, info }),
          (error: unknown) => ({
            endpoint: member.endpoint || ENVIRONMENT_ENGINE,
            error: error instanceof Error ? error : new Error(String(error)),
          }),
        ),
      ),
    );
  }

  // Engine-wide calls: the first engine of the list (pings, pulls, a direct create)...
  ping(options?: CallOptions): Promise<EngineInfo> {
    return this.members[0]!.engine.ping(options);
  }
  capacity(options?: CallOptions): Promise<EngineCapacity> {
    return this.members[0]!.engine.capacity(options);
  }

  /** ...but images are asked of every engine that answers: any may get the sandbox. */
  async hasImage(image: string, options?: CallOptions): Promise<boolean> {
    const answers = await this.fromEach((engine) => engine.hasImage(image, options));
    return answers.every(Boolean);
  }
  /** The images of every engine that answers (one row per tag set, sizes of the first). */
  async listImages(options?: CallOptions): Promise<ImageSummary[]> {
    const lists = await this.fromEach((engine) => engine.listImages(options));
    const seen = new Set<string>();
    return lists.flat().filter((image) => {
      const key = image.tags.join(',');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** One call per engine; those that fail are left out unless all do. */
  private async fromEach<T>(call: (engine: ContainerEngine) => Promise<T>): Promise<T[]> {
    const results = await Promise.allSettled(this.members.map((m) => call(m.engine)));
    const values = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (values.length === 0) throw (results[0] as PromiseRejectedResult).reason;
    return values;
  }
  pullImage(image: string, onProgress: (p: PullProgress) => void, options?: CallOptions) {
    return this.members[0]!.engine.pullImage(image, onProgress, options);
  }
  async createContainer(spec: ContainerSpec, options?: CallOptions): Promise<string> {
    const member = this.members[0]!;
    const id = await member.engine.createContainer(spec, options);
    this.adopt(id, member);
    return id;
  }

  /**
   * Every engine's containers with these labels (the orphan sweep visits them all); an
   * engine that does not answer is left out unless none answers.
   */
  async listContainers(
    labels: Record<string, string>,
    options?: CallOptions,
  ): Promise<ContainerSummary[]> {
    const results = await Promise.allSettled(
      this.members.map((member) => this.listOn(member, labels, options)),
    );
    const lists = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (lists.length === 0) throw (results[0] as PromiseRejectedResult).reason;
    return lists.flat();
  }

  /** One engine's containers with these labels; they route to it from now on. */
  async listOn(
    member: PoolMember,
    labels: Record<string, string>,
    options?: CallOptions,
  ): Promise<ContainerSummary[]> {
    const containers = await member.engine.listContainers(labels, options);
    for (const container of containers) {
      if (!this.owners.has(container.id)) this.owners.set(container.id, member);
    }
    return containers;
  }

  // Calls about one container: the engine it lives on.
  startContainer(id: string, options?: CallOptions) {
    return this.route(id).startContainer(id, options);
  }
  restartContainer(id: string, options?: CallOptions) {
    return this.route(id).restartContainer(id, options);
  }
  inspectContainer(id: string, options?: CallOptions) {
    return this.route(id).inspectContainer(id, options);
  }
  async removeContainer(id: string, options?: CallOptions): Promise<void> {
    const member = this.owners.get(id);
    await this.route(id).removeContainer(id, options);
    this.owners.delete(id);
    if (member) this.placed.get(member)?.delete(id);
  }
  containerPids(id: string, options?: CallOptions) {
    return this.route(id).containerPids(id, options);
  }
  cgroupPids(id: string, options?: CallOptions) {
    return this.route(id).cgroupPids(id, options);
  }
  async startExec(containerId: string, spec: ExecSpec, options?: CallOptions) {
    const member = this.owners.get(containerId) ?? this.members[0]!;
    const stream = await member.engine.startExec(containerId, spec, options);
    this.execOwners.set(stream.id, member);
    return stream;
  }
  inspectExec(execId: string, options?: CallOptions) {
    return (this.execOwners.get(execId) ?? this.members[0]!).engine.inspectExec(execId, options);
  }
  getArchive(containerId: string, path: string, options?: CallOptions) {
    return this.route(containerId).getArchive(containerId, path, options);
  }
  putArchive(containerId: string, path: string, tar: Buffer, options?: CallOptions) {
    return this.route(containerId).putArchive(containerId, path, tar, options);
  }

  /** exec id -> engine; bounded: an exec is inspected soon after it ends, then forgotten */
  private readonly execOwners = new BoundedMap<string, PoolMember>(4_096);
}

/** A map that forgets its oldest entries beyond a size (exec ids are never removed). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: K, value: V): this {
    super.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value as K);
    return this;
  }
}
