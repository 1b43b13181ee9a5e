/**
 * `workbench gateway`: the recording model gateway (docs/gateway.md) until SIGINT/SIGTERM.
 * Prints the two lines an agent needs on stdout (`OPENAI_BASE_URL=…`, `OPENAI_API_KEY=…`),
 * everything else on stderr.
 */
import { readFileSync } from 'node:fs';
import { createRuntime } from '../../runtime/runtime';
import { startGateway, type GatewayStartOptions } from '../../runtime/gateway/gateway';
import type { ChatReply } from '../../runtime/gateway/chat-reply';
import { parseCommandArgs, parsePositiveInt } from '../parse-args';
import { resolveRunRef } from '../run-ref';
import { listenFailure } from '../serve-listen';
import { EXIT, UsageError } from '../usage-error';
import { terminalSafe } from '../terminal-text';

export async function gatewayCommand(args: string[]): Promise<number> {
  const { values } = parseCommandArgs('gateway', args, {
    port: { type: 'string', default: '0' },
    profile: { type: 'string' },
    idle: { type: 'string' },
    replay: { type: 'string' },
    'on-divergence': { type: 'string' },
    fork: { type: 'string' },
    at: { type: 'string' },
    reply: { type: 'string' },
    break: { type: 'string', multiple: true },
    approve: { type: 'string', multiple: true },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a port number (0-65535), got "${values.port}"`);
  }
  const idleSeconds = parsePositiveInt(values.idle, '--idle');
  const onDivergence = values['on-divergence'];
  if (onDivergence !== undefined && onDivergence !== 'live' && onDivergence !== 'fail') {
    throw new UsageError(`--on-divergence must be live or fail, got "${onDivergence}"`);
  }
  if (values.replay && values.fork)
    throw new UsageError('give --replay RUN or --fork RUN, not both');
  if (values.fork && values.at === undefined)
    throw new UsageError('--fork RUN needs --at N (the step that goes live)');
  if (!values.fork && (values.at !== undefined || values.reply !== undefined)) {
    throw new UsageError('--at and --reply go with --fork RUN');
  }
  const token = process.env['WORKBENCH_GATEWAY_TOKEN'];
  if (token !== undefined && token.length < 16) {
    throw new UsageError(
      'WORKBENCH_GATEWAY_TOKEN must be at least 16 characters (or unset it for a random token)',
    );
  }
  const runtime = createRuntime({ sweepAtStart: false });
  const report = (line: string) =>
    process.stderr.write(`workbench gateway: ${terminalSafe(line)}\n`);
  let gateway;
  try {
    const source = values.replay ?? values.fork;
    const options: GatewayStartOptions = {
      port,
      ...(values.profile ? { profile: values.profile } : {}),
      ...(token ? { token } : {}),
      ...(idleSeconds !== undefined ? { idleMs: idleSeconds * 1000 } : {}),
      report,
      ...(values.break?.length ? { breakpoints: values.break } : {}),
      ...(values.approve?.length ? { approveTools: values.approve } : {}),
      ...(source
        ? {
            replay: {
              runId: resolveRunRef(source, runtime.runs.list()),
              ...(onDivergence ? { onDivergence } : {}),
              ...(values.fork ? { liveFrom: parsePositiveInt(values.at, '--at')! } : {}),
              ...(values.reply ? { reply: readReply(values.reply) } : {}),
            },
          }
        : {}),
    };
    gateway = await startGateway(runtime, options);
  } catch (error) {
    await runtime.dispose();
    const reason = await listenFailure(error, '127.0.0.1', port);
    if (reason !== undefined) throw new UsageError(reason);
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
  const { upstream } = gateway;
  process.stderr.write(
    `Agent Workbench gateway on ${gateway.url}, forwarding to ${upstream.kind === 'demo' ? 'the built-in demo model (the profile has no API key)' : `profile "${upstream.profile}" (${upstream.model})`}.\n` +
      `Its tools can run in the workbench sandbox: the sandbox MCP server (streamable HTTP) is at ${gateway.sandboxMcpUrl}, with the same key as "Authorization: Bearer"; send the agent's X-Workbench-Run: NAME there too and its calls are recorded into its run.\n` +
      'Point your agent at it with these (each agent becomes a run; X-Workbench-Run: NAME names it):\n',
  );
  process.stdout.write(`OPENAI_BASE_URL=${gateway.url}\nOPENAI_API_KEY=${gateway.token}\n`);
  runtime.runs.onEvent((event) => {
    if (event.type === 'run.started') report(`run ${event.runId} started (${event.agent})`);
    if (event.type === 'run.finished')
      report(`run ${event.runId} ended: ${event.outcome}, ${event.steps} steps`);
  });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  process.stderr.write('Stopping: ending the open runs...\n');
  await gateway.close();
  await runtime.dispose();
  return EXIT.finished;
}

/** A fork's reply at its first live step: `{"content": "…", "toolCalls": [{name, arguments}]}`. */
function readReply(file: string): ChatReply {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--reply ${file}: ${(error as Error).message}`);
  }
  const reply = parsed as { content?: unknown; toolCalls?: unknown };
  const calls = Array.isArray(reply.toolCalls) ? reply.toolCalls : [];
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    (reply.content !== undefined && typeof reply.content !== 'string' && reply.content !== null)
  ) {
    throw new UsageError(
      `--reply ${file}: expected {"content": "text", "toolCalls": [{"name": "...", "arguments": {...}}]}`,
    );
  }
  return {
    model: 'edited',
    content: typeof reply.content === 'string' ? reply.content : null,
    toolCalls: calls.map((raw, i) => {
      const call = raw as { name?: unknown; arguments?: unknown };
      if (typeof call.name !== 'string')
        throw new UsageError(`--reply ${file}: toolCalls[${i}] has no "name"`);
      return {
        id: `call_user_fork_${i + 1}`,
        type: 'function' as const,
        function: {
          name: call.name,
          arguments:
            typeof call.arguments === 'string'
              ? call.arguments
              : JSON.stringify(call.arguments ?? {}),
        },
      };
    }),
    finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
  };
}
