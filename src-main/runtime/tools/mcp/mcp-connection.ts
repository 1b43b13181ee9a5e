/**
 * One connection to one configured MCP server, over stdio, SSE or streamable HTTP, with
 * the official SDK client. It connects on first use. When the server goes away (the
 * process exits, the HTTP endpoint stops answering) the call in flight fails with a
 * message saying so, and the next call connects again and says it did.
 *
 * What the server sends unasked goes through a NotificationGate (notification-gate.ts):
 * a flood of notifications costs O(1) each, tool list changes are coalesced into
 * refreshes (tool-list-refresh.ts), and every request gets a signal of its own
 * (call-signal.ts) so none leaves a listener on the run's signal.
 *
 * What the server may ask of the client (sampling, elicitation, roots) and its log
 * messages are answered for the run using it (mcp-client-features.ts, mcp-run-host.ts);
 * its prompts are listed and fetched here (mcp-prompts.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerSettings } from '../../config/schema';
import { abortError, raceAbort } from '../../util/abort';
import { withCallSignal } from './call-signal';
import { errorText, lastLines, McpToolError, safeUrl, structuredMismatch } from './mcp-errors';
import type { McpCallResult } from './mcp-content';
import { NotificationGate, UNSOLICITED_PER_SECOND } from './notification-gate';
import { trackSends, type PendingSends } from './pending-sends';
import { createTransport, resolveHeaders } from './mcp-transport';
import type { McpAuthContext, WorkbenchOAuthProvider } from './mcp-oauth';
import { oauthProvider, resolveRef, type SignInOwner } from './mcp-sign-in';
import { callToolAsTask, type ToolProgress } from './mcp-task-call';
import { applyLogLevel, clientCapabilities, installClientFeatures } from './mcp-client-features';
import { HostRouter, type McpCallScope, type McpRunHost } from './mcp-run-host';
import { ToolListRefresh } from './tool-list-refresh';

export const CONNECT_TIMEOUT_MS = 30_000;
/** how long a close waits for messages in flight (a cancellation) to reach the server */
const CLOSE_GRACE_MS = 2_000;
const STDERR_TAIL_CHARS = 1500;
const CLIENT_INFO = { name: 'agent-workbench', version: '0.1.0' };

export interface RemoteTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** MCP tasks: "required" tools cannot be called with a plain tools/call */
  taskSupport?: 'required' | 'optional' | 'forbidden';
  /** the JSON schema of its `structuredContent`, when it declares one */
  outputSchema?: Record<string, unknown>;
}

export type { ToolProgress } from './mcp-task-call';
export { McpToolError } from './mcp-errors';

export interface CallOptions {
  /** progress the server reports (notifications/progress, or a task's status) */
  onProgress?: (progress: ToolProgress) => void;
  /** the run's tool call this is: what the server asks meanwhile goes to that run */
  scope?: McpCallScope;
}

export interface CallOutcome {
  result: McpCallResult;
  /** set when this call had to reconnect after the server went away */
  reconnected?: string;
}

export class McpConnection {
  readonly fingerprint: string;
  private client: Client | null = null;
  private transport: Transport | null = null;
  private gate: NotificationGate | null = null;
  private connecting: Promise<Client> | null = null;
  private toolCache: RemoteTool[] | null = null;
  /** the tools/list under way, shared by everyone who asks meanwhile */
  private listing: Promise<RemoteTool[]> | null = null;
  /** counts tool list changes, so a listing older than the latest one is not cached */
  private listGeneration = 0;
  private stderrTail = '';
  private pending: PendingSends | null = null;
  private readonly toolListeners = new Set<() => Promise<void> | void>();
  private readonly refresh = new ToolListRefresh(async () => {
    await Promise.allSettled([...this.toolListeners].map((listener) => listener()));
  });
  /** why the previous connection ended unexpectedly; reported once on reconnect */
  private lost: string | null = null;
  private closed = false;
  private connectCount = 0;
  /** the runs using this server, and their calls in flight */
  private readonly router = new HostRouter();

  constructor(
    readonly serverName: string,
    readonly settings: McpServerSettings,
    private readonly options: { cwd?: string; auth?: McpAuthContext } = {},
  ) {
    this.fingerprint = JSON.stringify(settings);
  }

  /** How many times a connection was opened (1 after the first use, more after reconnects). */
  get connections(): number {
    return this.connectCount;
  }

  get isConnected(): boolean {
    return this.client !== null;
  }

  /**
   * How messages name the server. Arguments, URL credentials and query strings are left
   * out: they can hold tokens, and these messages reach the model and the run log.
   */
  describe(): string {
    const s = this.settings;
    return `MCP server "${this.serverName}" (${s.type}: ${s.type === 'stdio' ? (s.command ?? '') : safeUrl(s.url ?? '')})`;
  }

  /**
   * A run uses this server from now on: the server's sampling and elicitation requests
   * and its log messages go to it (mcp-run-host.ts). Returns the detach function.
   */
  attach(host: McpRunHost): () => void {
    return this.router.attach(host);
  }

  async listTools(signal?: AbortSignal): Promise<RemoteTool[]> {
    const client = await this.connect(signal);
    if (this.toolCache) return this.toolCache;
    // One tools/list for everyone asking now (the agents following this server re-list
    // together); each caller may stop waiting on its own signal, the listing goes on.
    this.listing ??= this.fetchTools(client);
    try {
      return await raceAbort(this.listing, signal);
    } catch (error) {
      throw this.callFailure(error, 'listing its tools', signal);
    }
  }

  /** Whether the server offers resources (resources/list, resources/read). */
  async hasResources(signal?: AbortSignal): Promise<boolean> {
    const client = await this.connect(signal);
    return Boolean(client.getServerCapabilities()?.resources);
  }

  /** Whether the server can run task-based tools (MCP tasks). */
  async supportsTasks(signal?: AbortSignal): Promise<boolean> {
    const client = await this.connect(signal);
    return Boolean(client.getServerCapabilities()?.tasks?.requests?.tools?.call);
  }

  /**
   * Called after the server says its tool list changed (notifications/tools/list_changed):
   * once for any number of those, when the call they came during ends or soon after
   * (tool-list-refresh.ts).
   */
  onToolsChanged(listener: () => Promise<void> | void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  /**
   * Waits (a little) for the listeners to take in a tool list change. A server that
   * changes its tools during a call says so before it answers; the refresh starts when
   * the call ends, so a tool call that waits for this returns to an agent whose next
   * request already declares the new tools.
   */
  async toolsSettled(graceMs = 5_000): Promise<void> {
    await this.refresh.settled(graceMs);
  }

  /**
   * The client of a live connection, for the resource tools (mcp-resources.ts), with the
   * options for its requests (their own signal, the timeout); failures are worded by
   * `callFailure`.
   */
  async withClient<T>(
    doing: string,
    signal: AbortSignal | undefined,
    work: (client: Client, options: { signal?: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> {
    const client = await this.connect(signal);
    try {
      return await withCallSignal(signal, (own) =>
        work(client, { ...(own ? { signal: own } : {}), timeout: this.timeoutMs }),
      );
    } catch (error) {
      throw this.callFailure(error, doing, signal);
    }
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    options: CallOptions & { taskSupport?: RemoteTool['taskSupport'] } = {},
  ): Promise<CallOutcome> {
    const wasLost = this.lost;
    const client = await this.connect(signal);
    this.refresh.callStarted();
    const leave = options.scope ? this.router.enter(options.scope) : () => undefined;
    try {
      // A progress token is sent with every call, and each report restarts the timeout:
      // a long tool that says it is working is not cut off (issue 16 item 4).
      const onProgress = options.onProgress;
      const result = (await withCallSignal(signal, (own) =>
        options.taskSupport === 'required'
          ? callToolAsTask(client, name, args, {
              signal: own,
              timeoutMs: this.timeoutMs,
              ...(onProgress ? { onProgress } : {}),
            })
          : client.callTool({ name, arguments: args }, undefined, {
              signal: own,
              timeout: this.timeoutMs,
              resetTimeoutOnProgress: true,
              onprogress: (p) =>
                onProgress?.({
                  progress: p.progress,
                  ...(p.total !== undefined ? { total: p.total } : {}),
                  ...(p.message !== undefined ? { message: p.message } : {}),
                }),
            }),
      )) as McpCallResult;
      return wasLost
        ? {
            result,
            reconnected: `(The connection to ${this.describe()} had been lost: ${wasLost}. It was re-established for this call; state the server kept for the old connection may be gone.)`,
          }
        : { result };
    } catch (error) {
      throw this.callFailure(error, `running tool "${name}"`, signal);
    } finally {
      leave();
      this.refresh.callEnded();
      this.reportDropped(`while running tool "${name}"`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.refresh.stop();
    this.reportDropped('before it was closed');
    await this.drop();
  }

  private get timeoutMs(): number {
    return this.settings.timeout * 1000;
  }

  /** The live client, connecting (again) if there is none. Concurrent callers share one attempt. */
  private async connect(signal?: AbortSignal): Promise<Client> {
    if (this.closed)
      throw new McpToolError(`${this.describe()} was closed with its session.`, 'connect');
    if (this.client) return this.client;
    this.connecting ??= this.open(signal).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async fetchTools(client: Client): Promise<RemoteTool[]> {
    const generation = this.listGeneration;
    const tools: RemoteTool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, {
          timeout: this.timeoutMs,
        });
        for (const tool of page.tools) {
          const taskSupport = tool.execution?.taskSupport;
          tools.push({
            name: tool.name,
            description: tool.description ?? tool.title ?? '',
            inputSchema: tool.inputSchema as Record<string, unknown>,
            ...(taskSupport ? { taskSupport } : {}),
            ...(tool.outputSchema
              ? { outputSchema: tool.outputSchema as Record<string, unknown> }
              : {}),
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
    } finally {
      if (generation === this.listGeneration) this.listing = null;
    }
    // a list fetched while the server changed it again is not kept: it may be the old one
    if (generation === this.listGeneration && this.client === client) this.toolCache = tools;
    return tools;
  }

  /** The server's tools changed (O(1): a flood sends thousands of these). */
  private toolsChanged(): void {
    this.listGeneration++;
    this.toolCache = null;
    // a listing under way may have been answered before the change: the next one starts anew
    this.listing = null;
    this.refresh.changed();
  }

  /** Says once per call (and on close) how many unasked messages the gate dropped. */
  private reportDropped(when: string): void {
    const dropped = this.gate?.takeDropped() ?? 0;
    if (dropped === 0) return;
    console.warn(
      `[workbench] ${this.describe()} sent more than ${UNSOLICITED_PER_SECOND} unrequested messages a second; ${dropped} were dropped ${when}.`,
    );
  }

  private async open(signal?: AbortSignal, afterSignIn = false): Promise<Client> {
    this.stderrTail = '';
    this.toolCache = null;
    this.listing = null;
    const headers =
      this.settings.type === 'stdio'
        ? undefined
        : resolveHeaders(this.serverName, this.settings, (ref) =>
            resolveRef(this.signInOwner, ref),
          );
    const oauth = await oauthProvider(this.signInOwner, headers, signal);
    const transport = this.createTransport(headers, oauth);
    const pending = trackSends(transport);
    const client = new Client(CLIENT_INFO, {
      capabilities: clientCapabilities(this.settings, this.options.cwd),
    });
    installClientFeatures(client, {
      server: this.serverName,
      settings: this.settings,
      router: this.router,
      ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
    });
    // The server's tools changed: forget the list, and tell the agents using them (soon).
    const gate: NotificationGate = new NotificationGate(transport, {
      toolsChanged: () => {
        if (this.gate === gate) this.toolsChanged();
      },
    });
    client.onclose = () => {
      if (this.client !== client) return;
      // The server went away on its own: remember why, reconnect on next use.
      this.client = null;
      this.transport = null;
      this.gate = null;
      this.toolCache = null;
      this.listing = null;
      this.lost = this.exitReason(
        this.settings.type === 'stdio' ? 'the server process exited' : 'the connection closed',
      );
    };
    try {
      await withCallSignal(signal, (own) =>
        client.connect(gate, { timeout: CONNECT_TIMEOUT_MS, ...(own ? { signal: own } : {}) }),
      );
    } catch (error) {
      // The server asked for a sign-in (a 401): the SDK opened the consent page; the code
      // comes back on the loopback redirect, then the connection starts again signed in.
      const signIn = afterSignIn ? null : (oauth?.waitForCode() ?? null);
      if (signIn && !signal?.aborted) {
        try {
          await (transport as StreamableHTTPClientTransport).finishAuth(await signIn);
        } catch (failure) {
          await client.close().catch(() => undefined);
          if (signal?.aborted) throw abortError(signal);
          throw new McpToolError(
            `${this.describe()} needs you to sign in (OAuth), and the sign-in did not finish: ${errorText(failure)}. The next use of the server asks again.`,
            'connect',
          );
        }
        await client.close().catch(() => undefined);
        return this.open(signal, true);
      }
      oauth?.dispose();
      await client.close().catch(() => undefined);
      if (signal?.aborted) throw abortError(signal);
      throw new McpToolError(
        `Could not connect to ${this.describe()}: ${this.exitReason(errorText(error))}.${this.hint()}`,
        'connect',
      );
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpToolError(`${this.describe()} was closed with its session.`, 'connect');
    }
    this.client = client;
    this.transport = transport;
    this.gate = gate;
    this.pending = pending;
    this.connectCount++;
    this.lost = null;
    await applyLogLevel(client, {
      describe: () => this.describe(),
      level: this.settings.log_level,
      timeoutMs: this.timeoutMs,
    });
    return client;
  }

  /** Who the server is, for its credentials and sign-in (mcp-sign-in.ts). */
  private get signInOwner(): SignInOwner {
    return {
      serverName: this.serverName,
      settings: this.settings,
      auth: this.options.auth,
      router: this.router,
      describe: () => this.describe(),
    };
  }

  private createTransport(
    headers: Record<string, string> | undefined,
    authProvider: WorkbenchOAuthProvider | undefined,
  ): Transport {
    return createTransport(this.settings, {
      ...(headers ? { headers } : {}),
      ...(authProvider ? { authProvider } : {}),
      ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      onStderr: (text) => {
        // Keep the end of the server's stderr for error messages instead of flooding ours.
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
      },
    });
  }

  /** Closes the current client without marking the connection as lost. */
  private async drop(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const pending = this.pending;
    this.client = null;
    this.transport = null;
    this.gate = null;
    this.pending = null;
    this.toolCache = null;
    this.listing = null;
    if (!client) return;
    await pending?.drain(CLOSE_GRACE_MS);
    if (transport instanceof StreamableHTTPClientTransport) {
      await transport.terminateSession().catch(() => undefined);
    }
    await client.close().catch(() => undefined);
  }

  private callFailure(error: unknown, doing: string, signal?: AbortSignal): Error {
    if (signal?.aborted) return abortError(signal);
    if (error instanceof McpToolError) return error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpToolError(
        `${this.describe()} did not answer within ${this.settings.timeout} s while ${doing} ([mcp.servers.${this.serverName}] timeout).`,
        'timeout',
      );
    }
    const mismatch = structuredMismatch(error);
    if (mismatch !== null) {
      return new McpToolError(
        `${this.describe()} returned structured content that does not match the output schema of ${doing.replace(/^running /, '')}: ${mismatch}`,
        'protocol',
      );
    }
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      return new McpToolError(`${this.describe()} refused ${doing}: ${error.message}`, 'protocol');
    }
    // The transport failed (process exited, HTTP endpoint gone): this connection is
    // finished. Drop it so the next call connects again.
    const reason = this.lost ?? this.exitReason(errorText(error));
    this.lost = reason;
    void this.drop();
    const next =
      this.settings.type === 'stdio'
        ? 'It will be restarted on the next call to one of its tools.'
        : 'The next call to one of its tools will connect again.';
    return new McpToolError(
      `Lost ${this.describe()} while ${doing}: ${reason}. ${next}`,
      'connection_lost',
    );
  }

  private exitReason(base: string): string {
    const tail = this.stderrTail.trim();
    return tail ? `${base}; its last error output: ${lastLines(tail, 5)}` : base;
  }

  private hint(): string {
    const { givenBy } = this.settings;
    if (givenBy) return ` Check ${givenBy}.`;
    return this.settings.type === 'stdio'
      ? ` Check [mcp.servers.${this.serverName}] command and args in config.toml.`
      : ` Check that the server is running and [mcp.servers.${this.serverName}] url is right.`;
  }
}
