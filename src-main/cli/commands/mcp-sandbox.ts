/**
 * `workbench mcp-sandbox`: the workbench sandbox as an MCP server on stdio, for any MCP
 * client (an agent framework, an IDE, the workbench's own mcp agent). The client's calls
 * run in a Docker sandbox with the config's policy and limits and are recorded as one run
 * in the history (docs/mcp.md, "The sandbox as an MCP server"). stdout carries only MCP
 * messages; what the command says goes to stderr.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { WorkspaceChoice } from '@shared/domain/runs';
import { createRuntime } from '../../runtime/runtime';
import { ConfigError } from '../../runtime/config/load';
import { SandboxRun, type SandboxRunOptions } from '../../runtime/sandbox-mcp/sandbox-run';
import { createSandboxMcpServer } from '../../runtime/sandbox-mcp/sandbox-mcp-server';
import { parseCommandArgs, parsePositiveInt } from '../parse-args';
import { resolveRunRef } from '../run-ref';
import { EXIT, UsageError } from '../usage-error';

export async function mcpSandboxCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('mcp-sandbox', args, {
    workspace: { type: 'string' },
    isolated: { type: 'boolean', default: false },
    fork: { type: 'string' },
    at: { type: 'string' },
    config: { type: 'string', short: 'c' },
  });
  if (positionals.length > 0) {
    throw new UsageError(`mcp-sandbox takes no arguments (got "${positionals[0]}")`);
  }
  if (values.isolated && values.workspace === undefined) {
    throw new UsageError('--isolated copies the --workspace DIR; give the folder too');
  }
  if ((values.fork === undefined) !== (values.at === undefined)) {
    throw new UsageError(
      '--fork RUN and --at STEP go together: the step whose files to start from',
    );
  }
  if (values.fork !== undefined && values.workspace !== undefined) {
    throw new UsageError(
      "--fork starts from a run's files in a fresh container: leave out --workspace",
    );
  }
  if (values.config !== undefined && !existsSync(values.config)) {
    throw new UsageError(`config file not found: ${values.config}`);
  }
  const workspace: WorkspaceChoice | undefined =
    values.workspace !== undefined
      ? { path: resolve(values.workspace), mode: values.isolated ? 'copy' : 'mount' }
      : undefined;
  const runtime = createRuntime({
    sweepAtStart: false,
    ...(values.config !== undefined ? { configFile: values.config } : {}),
  });
  try {
    try {
      runtime.services.loadConfig();
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    let fork: SandboxRunOptions['fork'];
    if (values.fork !== undefined) {
      const step = parsePositiveInt(values.at, '--at')!;
      const runId = resolveRunRef(values.fork, runtime.runs.list());
      const steps = runtime.runs.checkpointsOf(runId).map((c) => c.step);
      if (!steps.includes(step)) {
        throw new UsageError(
          steps.length > 0
            ? `run ${runId} has no checkpoint at step ${step} (checkpoints: steps ${steps.join(', ')})`
            : `run ${runId} has no checkpoints: its files cannot be forked`,
        );
      }
      fork = { runId, step };
    }
    return await serveOnStdio(runtime, { workspace, fork });
  } finally {
    await runtime.dispose();
  }
}

async function serveOnStdio(
  runtime: ReturnType<typeof createRuntime>,
  choice: Omit<SandboxRunOptions, 'title'>,
): Promise<number> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  let opened: Promise<SandboxRun> | null = null;
  const server = await createSandboxMcpServer((client) => {
    if (opened) return opened;
    opened = SandboxRun.start(runtime, {
      title: `MCP sandbox session (stdio)${client ? `: ${client}` : ''}`,
      ...(choice.workspace ? { workspace: choice.workspace } : {}),
      ...(choice.fork ? { fork: choice.fork } : {}),
    });
    opened.then(
      (run) => process.stderr.write(`workbench mcp-sandbox: recording run ${run.runId}\n`),
      (error: unknown) =>
        process.stderr.write(`workbench mcp-sandbox: ${(error as Error).message}\n`),
    );
    return opened;
  });
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolveEnd) => {
    transport.onclose = () => resolveEnd();
    process.stdin.once('end', () => resolveEnd());
    process.once('SIGINT', () => resolveEnd());
    process.once('SIGTERM', () => resolveEnd());
  });
  await server.connect(transport);
  process.stderr.write('workbench mcp-sandbox: serving the sandbox tools on stdio\n');
  await ended;
  await server.close().catch(() => undefined);
  const run = await (opened as Promise<SandboxRun> | null)?.catch(() => null);
  if (run) {
    const result = await run.close();
    process.stderr.write(
      `workbench mcp-sandbox: run ${run.runId} ended after ${result.steps} call(s)\n`,
    );
  }
  return EXIT.finished;
}
