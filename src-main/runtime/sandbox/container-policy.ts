/**
 * The container policy (reliability.md 2.3): what every sandbox container is created
 * with. One pure function, so the policy is asserted on the create options in a unit
 * test and on `docker inspect` of a real container in an integration test.
 *
 * - No network unless `[sandbox] network_enabled`, no published ports.
 * - All capabilities dropped, no-new-privileges, never privileged, default seccomp.
 * - Read-only root filesystem; a size-limited tmpfs at /tmp (owned by the sandbox user,
 *   which a plain `mode=1777` does not achieve for non-root users).
 * - Memory == MemorySwap (no swap), CPU quota, pids limit, file-size and open-file limits.
 * - Init (tini) as PID 1, so orphans and zombies are reaped.
 * - A non-root numeric user (see `sandboxUser`); the only bind is the session's
 *   workspace folder, never the Docker socket.
 */
import { createHash } from 'node:crypto';
import type { SandboxSettings } from '../config/schema';
import type { ContainerSpec } from './engine';
import { parseByteSize } from './workspace-size';

/** Bump when the create options change, so running sandboxes are recreated. */
export const POLICY_VERSION = '1';

export const LABELS = {
  managed: 'agent-workbench.managed',
  instance: 'agent-workbench.instance',
  session: 'agent-workbench.session',
  host: 'agent-workbench.host',
  pid: 'agent-workbench.pid',
  pidStart: 'agent-workbench.pid-start',
  policy: 'agent-workbench.policy',
  /** started ahead by a batch's warm pool (its batch id); the session label names the run's session */
  warmPool: 'agent-workbench.warm-pool',
} as const;

export const TMP_SIZE_BYTES = 256 * 1024 * 1024;
export const FILE_SIZE_LIMIT_BYTES = 1024 * 1024 * 1024;
export const OPEN_FILES_LIMIT = 4096;
/**
 * Set explicitly because Podman (rootful) otherwise asks the runtime for the largest
 * nproc, which fails where the engine may not raise its own limit (`error setting rlimit
 * type 6`). The pids cgroup (`pids_limit`) is the real bound; nproc counts every process
 * of the uid on the host, so it stays far above what a desktop user runs.
 */
export const PROCESS_RLIMIT = 16_384;

export interface SandboxUser {
  uid: number;
  gid: number;
}

/** Who created the container: lets a later start tell a crashed owner from a live one. */
export interface OwnerLabels {
  instanceId: string;
  host: string;
  pid: number;
  /** process start time, to tell a reused pid from the original process */
  pidStart: string;
}

export interface PolicyInput {
  settings: SandboxSettings;
  sessionId: string;
  /** host folder bound to `settings.work_dir` */
  workspaceDir: string;
  user: SandboxUser;
  owner: OwnerLabels;
  /**
   * how the engine makes /tmp the sandbox user's: `uid` (Docker: `uid=,gid=` tmpfs
   * options) or `U` (Podman refuses `uid=` and chowns the mount to the container's user
   * with `U`); learnt from the engine's answer (`isUnknownTmpfsOption`), default `uid`
   */
  tmpfsOwner?: TmpfsOwnerOption;
  /** the batch whose warm pool starts this container ahead of its run (warm-pool.ts) */
  warmPool?: string;
}

export type TmpfsOwnerOption = 'uid' | 'U';

/** The engine refused the tmpfs `uid=` option (Podman 4: `unknown mount option "uid=1000"`). */
export function isUnknownTmpfsOption(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /unknown mount option\s+"?uid=/i.test(message);
}

/**
 * The user the sandbox runs as. Never root: the host user's uid/gid when the app runs as
 * a normal user (so files the agent writes in the workspace belong to that user), else
 * 1000:1000 (the local image's `sandbox` user). Images without such a user in
 * /etc/passwd (python:3.12-slim) still run fine under a numeric uid; HOME points at /tmp.
 */
export function sandboxUser(
  uid: number | undefined = process.getuid?.(),
  gid: number | undefined = process.getgid?.(),
): SandboxUser {
  if (uid === undefined || gid === undefined || uid === 0) return { uid: 1000, gid: 1000 };
  return { uid, gid: gid === 0 ? uid : gid };
}

export function parseMemory(text: string): number {
  let bytes: number;
  try {
    bytes = parseByteSize(text);
  } catch {
    throw new Error(`[sandbox] memory_limit "${text}" must look like 512m or 1g`);
  }
  if (bytes < 6 * 1024 * 1024) {
    throw new Error(`[sandbox] memory_limit "${text}" is below Docker's minimum of 6m`);
  }
  return bytes;
}

/** A short hash of everything that shapes the container; a change means "recreate". */
export function policyHash(input: Pick<PolicyInput, 'settings' | 'user'>): string {
  const s = input.settings;
  const key = JSON.stringify([
    POLICY_VERSION,
    s.image,
    s.work_dir,
    s.memory_limit,
    s.cpu_limit,
    s.pids_limit,
    s.network_enabled,
    input.user.uid,
    input.user.gid,
  ]);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export function buildContainerSpec(input: PolicyInput): ContainerSpec {
  const { settings, user } = input;
  const memory = parseMemory(settings.memory_limit);
  // tmpfs pages count against the memory limit: /tmp may use at most half of it.
  const tmpSize = Math.min(TMP_SIZE_BYTES, Math.floor(memory / 2));
  const userSpec = `${user.uid}:${user.gid}`;
  if (input.workspaceDir.includes(':')) {
    // A colon would be read as the bind's separator; refuse rather than bind the wrong path.
    throw new Error(`The workspace folder path cannot contain ":" (${input.workspaceDir})`);
  }
  return {
    name: containerName(input.sessionId),
    Image: settings.image,
    User: userSpec,
    WorkingDir: settings.work_dir,
    // Override any image entrypoint: the container only idles; commands come as execs.
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    Env: [
      'HOME=/tmp',
      'TERM=dumb',
      'LANG=C.UTF-8',
      'PYTHONUNBUFFERED=1',
      'PYTHONDONTWRITEBYTECODE=1',
      'PAGER=cat',
      'GIT_PAGER=cat',
    ],
    Labels: {
      [LABELS.managed]: 'true',
      [LABELS.instance]: input.owner.instanceId,
      [LABELS.session]: input.sessionId,
      [LABELS.host]: input.owner.host,
      [LABELS.pid]: String(input.owner.pid),
      [LABELS.pidStart]: input.owner.pidStart,
      [LABELS.policy]: policyHash(input),
      ...(input.warmPool !== undefined ? { [LABELS.warmPool]: input.warmPool } : {}),
    },
    Hostname: 'sandbox',
    ExposedPorts: {},
    HostConfig: {
      NetworkMode: settings.network_enabled ? 'bridge' : 'none',
      Privileged: false,
      CapDrop: ['ALL'],
      CapAdd: [],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      Tmpfs: {
        '/tmp':
          input.tmpfsOwner === 'U'
            ? `rw,nosuid,nodev,size=${tmpSize},mode=1777,U`
            : `rw,nosuid,nodev,size=${tmpSize},uid=${user.uid},gid=${user.gid},mode=1777`,
      },
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: Math.round(settings.cpu_limit * 1e9),
      PidsLimit: settings.pids_limit,
      Init: true,
      IpcMode: 'private',
      Ulimits: [
        { Name: 'fsize', Soft: FILE_SIZE_LIMIT_BYTES, Hard: FILE_SIZE_LIMIT_BYTES },
        { Name: 'nofile', Soft: OPEN_FILES_LIMIT, Hard: OPEN_FILES_LIMIT },
        { Name: 'nproc', Soft: PROCESS_RLIMIT, Hard: PROCESS_RLIMIT },
      ],
      Binds: [`${input.workspaceDir}:${settings.work_dir}:rw`],
      PortBindings: {},
      PublishAllPorts: false,
      // Kept after exit so its state (OOM, exit code) stays inspectable; we remove it.
      AutoRemove: false,
      RestartPolicy: { Name: 'no' },
    },
  };
}

function containerName(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 60);
  const suffix = Math.random().toString(36).slice(2, 8);
  return `agent-workbench-${safe}-${suffix}`;
}
