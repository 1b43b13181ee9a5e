/**
 * A running model gateway: its server, the runs it records into the runtime's run
 * manager, its token and where it forwards. `workbench gateway` and the app's Gateway
 * panel start one (docs/gateway.md).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Runtime } from '../runtime';
import { GatewayRuns } from './gateway-runs';
import { GatewayServer } from './gateway-server';
import { ReplayPlan, recordedSteps, type ReplayOptions } from './gateway-replay';
import { resolveUpstream, type Upstream } from './upstream';
import type { ChatReply } from './chat-reply';
import { createSandboxMcpHttpHandler } from '../sandbox-mcp/sandbox-mcp-http';

export interface GatewayStartOptions {
  port?: number;
  /** the `[llm.NAME]` profile calls go to (default `[llm]`; no key: the demo model) */
  profile?: string;
  /** the API key agents use (default: a new random one) */
  token?: string;
  /** an agent with no call for this long has finished */
  idleMs?: number;
  keepAliveMs?: number;
  /** breakpoints and approval tools of every run (docs/debugger.md), e.g. `tool:NAME`, `stuck` */
  breakpoints?: string[];
  approveTools?: string[];
  /** answer the first run's calls from this run's recording */
  replay?: {
    runId: string;
    onDivergence?: 'live' | 'fail';
    /** a fork: live from this step (with `reply` as its reply, once) */
    liveFrom?: number;
    reply?: ChatReply;
  };
  report?: (message: string) => void;
}

export interface Gateway {
  url: string;
  token: string;
  upstream: Upstream;
  runs: GatewayRuns;
  /** the sandbox MCP server (streamable HTTP, the same token; docs/mcp.md) */
  sandboxMcpUrl: string;
  close(): Promise<void>;
}

export async function startGateway(
  runtime: Runtime,
  options: GatewayStartOptions = {},
): Promise<Gateway> {
  const upstream = resolveUpstream(runtime.services, options.profile);
  const token = options.token ?? `wbg-${randomBytes(24).toString('base64url')}`;
  const replay = options.replay ? replayPlan(runtime, options.replay, options.report) : undefined;
  const runs = new GatewayRuns({
    runs: runtime.runs,
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    ...(options.replay ? { firstRun: firstRunOf(options.replay) } : {}),
    ...(options.breakpoints ? { breakpoints: options.breakpoints } : {}),
    ...(options.approveTools ? { approveTools: options.approveTools } : {}),
    sandboxHost: runtime,
  });
  // the agents' tools run in the workbench sandbox, recorded into their runs (docs/mcp.md)
  const tokenBytes = Buffer.from(token, 'utf8');
  const sandboxMcp = createSandboxMcpHttpHandler({
    host: runtime,
    isToken: (given) => {
      const bytes = Buffer.from(given, 'utf8');
      return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
    },
    namedRun: (name) => runs.sandboxOf(name),
  });
  const server = new GatewayServer({
    runs,
    upstream,
    token,
    sandboxMcp,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
    ...(replay ? { replay } : {}),
  });
  let url: string;
  try {
    url = await server.start();
  } catch (error) {
    await sandboxMcp.close();
    throw error;
  }
  return {
    url,
    token,
    upstream,
    runs,
    sandboxMcpUrl: url.replace(/\/v1$/, sandboxMcp.path),
    async close() {
      await sandboxMcp.close();
      await server.close();
      await runs.closeAll();
    },
  };
}

function replayPlan(
  runtime: Runtime,
  replay: NonNullable<GatewayStartOptions['replay']>,
  report: ((message: string) => void) | undefined,
): ReplayPlan {
  const events = runtime.runs.history.read(replay.runId)?.events;
  if (!events) throw new Error(`There is no run ${replay.runId} in the history to replay.`);
  const agent = events.find((e) => e.type === 'run.started');
  if (!agent || agent.type !== 'run.started' || !agent.agent.startsWith('external: ')) {
    throw new Error(
      `Run ${replay.runId} is not an external agent's run (its agent is ${agent?.type === 'run.started' ? agent.agent : 'unknown'}): only runs recorded by the gateway can be replayed through it.`,
    );
  }
  const steps = recordedSteps(events);
  if (
    replay.liveFrom !== undefined &&
    (replay.liveFrom < 1 || replay.liveFrom > steps.length + 1)
  ) {
    throw new Error(
      `Run ${replay.runId} has steps 1 to ${steps.length}: a fork can start at step 1 to ${steps.length + 1}.`,
    );
  }
  const options: ReplayOptions = {
    sourceRunId: replay.runId,
    onDivergence: replay.onDivergence ?? 'live',
    ...(replay.liveFrom !== undefined ? { liveFrom: replay.liveFrom } : {}),
    ...(replay.reply ? { replyAt: replay.reply } : {}),
    ...(report ? { report } : {}),
  };
  return new ReplayPlan(steps, options);
}

/** A fork is listed as a fork of the run's step before it; a replay as a re-run of it. */
function firstRunOf(replay: NonNullable<GatewayStartOptions['replay']>) {
  return replay.liveFrom !== undefined
    ? {
        lineage: {
          kind: 'fork' as const,
          from: { runId: replay.runId, step: replay.liveFrom - 1 },
          seq: 0,
        },
      }
    : { rerunOf: replay.runId };
}
