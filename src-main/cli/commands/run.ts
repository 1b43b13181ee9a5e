import { cliSignInOpener } from '../sign-in-opener';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAgentName, type AgentName } from '@shared/domain/agent';
import { parseAgentRef } from '@shared/domain/agent-definition';
import { isDefinitionPath } from '../../runtime/agents/definitions/agent-store';
import { AgentDefinitionError } from '../../runtime/agents/definitions/load-definition';
import { carrierAgent } from '../../runtime/agents/definitions/tool-patterns';
import { resolveRunDefinition } from '../../runtime/launch/run-definition';
import { ConfigError } from '../../runtime/config/load';
import type { RunEvent } from '@shared/events';
import type { WorkspaceChoice } from '@shared/ipc';
import { createRuntime } from '../../runtime/runtime';
import { parseCommandArgs, parsePositiveInt } from '../parse-args';
import { UsageError } from '../usage-error';
import { followRun } from '../follow-run';
import { attachTerminalPrompt } from '../human-prompt';
import { RunPrinter } from '../run-printer';
import { workspaceLine } from '../workspace-line';
import { readTask } from '../task-input';
import { preflightOrExit } from '../preflight-report';
import { attachDebugTerminal } from '../debug-terminal';
import { resolveDebugOptions } from '../debug-options';
import { mcpServerOverlay } from '../mcp-server-options';
import { resolveTaskText } from '../task-file';
import { mcpPromptChoice } from '../mcp-prompt-options';
import { checkProfileName } from '../profile-option';

export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', args, {
    agent: { type: 'string' },
    flow: { type: 'string' },
    profile: { type: 'string' },
    // -c FILE and -p TEXT: the short forms OpenManus users reach for (issue 25 item 8)
    config: { type: 'string', short: 'c' },
    'max-steps': { type: 'string' },
    jsonl: { type: 'boolean', default: false },
    prompt: { type: 'string', short: 'p' },
    workspace: { type: 'string' },
    isolated: { type: 'boolean', default: false },
    break: { type: 'string', multiple: true },
    approve: { type: 'string', multiple: true },
    'no-breakpoints': { type: 'boolean', default: false },
    // OpenManus's run_mcp.py habits (mcp-server-options.ts)
    connection: { type: 'string' },
    'server-url': { type: 'string' },
    'server-command': { type: 'string' },
    // the task from one of the MCP server's prompts (docs/mcp.md, "Prompts")
    'mcp-prompt': { type: 'string' },
    arg: { type: 'string', multiple: true },
  });
  // a built-in agent by name (or NAME@1); anything else is a user's agent or a file
  const agentOption = values.agent ?? 'manus';
  const builtinName = parseAgentRef(agentOption).name;
  const isBuiltin = isAgentName(builtinName) && !isDefinitionPath(agentOption);
  let agent: AgentName = isBuiltin ? builtinName : 'manus';
  if (values.flow !== undefined && values.flow !== 'planning') {
    throw new UsageError(`unknown flow "${values.flow}" (the only flow is "planning")`);
  }
  const maxSteps = parsePositiveInt(values['max-steps'], '--max-steps');
  if (values.isolated && values.workspace === undefined) {
    throw new UsageError('--isolated copies the --workspace DIR; give the folder too');
  }
  const workspace: WorkspaceChoice | undefined =
    values.workspace !== undefined
      ? { path: resolve(values.workspace), mode: values.isolated ? 'copy' : 'mount' }
      : undefined;
  let agentRef: string | undefined;
  const prompt = mcpPromptChoice(agent, values['mcp-prompt'], values.arg);
  const hasTask = positionals.length > 0 || values.prompt !== undefined;
  // file:PATH (OpenManus users keep long prompts in files) works wherever the task comes from.
  // With --mcp-prompt the prompt's messages are the task; a TASK given too is added after them.
  const task =
    prompt && !hasTask
      ? ''
      : resolveTaskText(
          await readTask({
            positionals,
            prompt: values.prompt,
            stdin: process.stdin,
            hint: (message) => process.stderr.write(`workbench: ${message}\n`),
          }),
        );
  const overlay = mcpServerOverlay({
    agent,
    connection: values.connection,
    serverUrl: values['server-url'],
    serverCommand: values['server-command'],
  });

  const runtime = createRuntime({
    // a run that never uses the sandbox does not load the Docker client (issue 16 item 7)
    sweepAtStart: false,
    openUrl: cliSignInOpener(),
    ...(values.config !== undefined ? { configFile: values.config } : {}),
    ...(overlay ? { configOverlay: overlay } : {}),
  });
  let config;
  try {
    // Bad config is bad usage: say which file and key, exit 2, before any run starts.
    if (values.config !== undefined && !existsSync(values.config)) {
      throw new UsageError(`config file not found: ${values.config}`);
    }
    config = runtime.services.loadConfig();
    if (!isBuiltin || agentOption !== builtinName) {
      // checked here so a bad definition exits 2 and records nothing (docs/agents.md)
      const definition = resolveRunDefinition(agentOption, runtime.services.home, config);
      if (definition.source !== 'builtin') {
        agent = carrierAgent(definition.patterns);
        // pinned: the run uses exactly the version checked here
        agentRef =
          definition.source === 'file'
            ? definition.path!
            : `${definition.data.name}@${definition.version}`;
      }
    }
    if (values.profile !== undefined) {
      if (values.flow === 'planning')
        throw new UsageError(
          '--profile is for one agent: a planning flow runs each agent on its own',
        );
      checkProfileName(config, values.profile);
    }
  } catch (error) {
    await runtime.dispose();
    if (
      error instanceof ConfigError ||
      error instanceof UsageError ||
      error instanceof AgentDefinitionError
    )
      throw new UsageError(error.message);
    throw error;
  }
  const debugging = resolveDebugOptions({
    breaks: values.break,
    approves: values.approve,
    noBreakpoints: values['no-breakpoints'],
    isJsonl: values.jsonl,
    config,
    agent,
    isFlow: values.flow === 'planning',
    tty: { stdin: process.stdin.isTTY === true, stderr: process.stderr.isTTY === true },
  });
  const input = {
    task,
    agent,
    ...(agentRef !== undefined ? { agentRef } : {}),
    ...(values.flow === 'planning' ? { flow: 'planning' as const } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(workspace ? { workspace } : {}),
    ...(debugging.breakpoints.length > 0 ? { breakpoints: debugging.breakpoints } : {}),
    ...(debugging.approveTools.length > 0 ? { approveTools: debugging.approveTools } : {}),
    ...(prompt ? { prompt } : {}),
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
  };
  // Warnings are said before the run; errors refuse it (exit 2) with the fix.
  await preflightOrExit(runtime, input);

  // With --jsonl stdout is the event stream alone; the printer then only keeps the verdict.
  const printer = new RunPrinter(
    (line) => {
      if (!values.jsonl) process.stderr.write(`${line}\n`);
    },
    (id, ref) => runtime.runs.history.imagePath?.(id, ref),
    workspaceLine(runtime.services.home),
  );
  runtime.runs.onEvent((event: RunEvent) => {
    if (values.jsonl) process.stdout.write(`${JSON.stringify(event)}\n`);
    printer.onEvent(event);
  });
  // ask_human: answered at the terminal on a TTY; otherwise it fails with a clear reason.
  const detachPrompt = attachTerminalPrompt(runtime.services.human);

  const handle = runtime.runs.start(input, {
    actor: 'terminal',
    ignoreSavedBreakpoints: debugging.ignoreSaved,
  });
  // Pauses are answered at the terminal; Ctrl-\ (SIGQUIT) pauses at the next safe point.
  const detachDebug = debugging.isInteractive
    ? attachDebugTerminal({ runs: runtime.runs, runId: handle.runId })
    : () => {};
  const onQuit = () => {
    process.stderr.write('workbench: pausing at the next safe point (Ctrl-\\)\n');
    runtime.runs.debugger(handle.runId)?.pause();
  };
  if (debugging.isInteractive) process.on('SIGQUIT', onQuit);
  return followRun(runtime, handle, printer, {
    isJsonl: values.jsonl,
    onEnd: () => {
      detachPrompt();
      detachDebug();
      process.off('SIGQUIT', onQuit);
    },
  });
}
