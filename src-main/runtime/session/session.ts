/**
 * A session is a workspace: a folder on the host and the long-lived resources created
 * for it on first use (a sandbox container, a browser, MCP connections). Every run and
 * every PlanningFlow step of the session shares them; closing the session releases them
 * (fixes openmanus.md 7.1 f: the original destroyed the container after every run).
 */
import { mkdirSync } from 'node:fs';
import { isSessionId } from '@shared/domain/ids';
import { assertNotSymlink, assertRealInside, resolveInside } from '../util/contained-path';

export interface SessionResource {
  dispose(): Promise<void>;
}

export class Session {
  private readonly resources = new Map<string, Promise<SessionResource>>();
  private isClosed = false;

  constructor(
    readonly id: string,
    readonly workspaceDir: string,
    /**
     * the folder is the user's own (`--workspace DIR`), not one the app made: it is never
     * chowned, and the sandbox writes there as the folder's owner
     */
    readonly isUserFolder = false,
  ) {}

  /** Creates the named resource once per session; concurrent callers share the creation. */
  use<T extends SessionResource>(key: string, create: () => Promise<T>): Promise<T> {
    if (this.isClosed) return Promise.reject(new Error(`Session ${this.id} is closed`));
    let pending = this.resources.get(key);
    if (!pending) {
      pending = create();
      this.resources.set(key, pending);
      // A failed creation is not cached: the next use tries again.
      pending.catch(() => {
        if (this.resources.get(key) === pending) this.resources.delete(key);
      });
    }
    return pending as Promise<T>;
  }

  /** Drops a resource (e.g. a container killed from outside) so the next use recreates it. */
  async release(key: string): Promise<void> {
    const pending = this.resources.get(key);
    this.resources.delete(key);
    if (pending) await (await pending.catch(() => null))?.dispose();
  }

  has(key: string): boolean {
    return this.resources.has(key);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    const pending = [...this.resources.values()];
    this.resources.clear();
    const results = await Promise.allSettled(
      pending.map(async (p) => (await p.catch(() => null))?.dispose()),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) {
      throw new AggregateError(
        failed.map((f) => f.reason as unknown),
        `Closing session ${this.id} failed`,
      );
    }
  }
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly workspacesDir: string) {}

  /**
   * The session with this id, created (with its workspace folder) on first use. The
   * folder must be a real folder strictly inside the workspaces folder: it is bind-mounted
   * read-write into the sandbox (and handed to the sandbox user when the app runs as root).
   */
  open(id: string): Session {
    if (!isSessionId(id)) {
      throw new Error(
        `Invalid session id "${id}": use 1-100 letters, digits, ".", "_" or "-" (not only dots)`,
      );
    }
    let session = this.sessions.get(id);
    if (!session || session.closed) {
      const dir = resolveInside(this.workspacesDir, id, 'The session workspace');
      mkdirSync(dir, { recursive: true });
      assertNotSymlink(dir, 'The session workspace');
      assertRealInside(this.workspacesDir, dir, 'The session workspace');
      session = new Session(id, dir);
      this.sessions.set(id, session);
    }
    return session;
  }

  /**
   * The session of a folder the user chose (`--workspace DIR`, or its isolated copy).
   * The folder must exist; the same id always means the same folder.
   */
  openAt(id: string, dir: string, options: { isUserFolder: boolean }): Session {
    if (!isSessionId(id)) throw new Error(`Invalid session id: ${id}`);
    let session = this.sessions.get(id);
    if (!session || session.closed || session.workspaceDir !== dir) {
      session = new Session(id, dir, options.isUserFolder);
      this.sessions.set(id, session);
    }
    return session;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    await session?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.close()));
  }
}
