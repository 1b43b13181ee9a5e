/**
 * `workbench run`'s debugger flags: `--break SPEC` (repeatable), `--approve TOOL`
 * (repeatable) and `--no-breakpoints` (ignore those saved in config.toml). A breakpoint
 * needs someone to answer it: without an interactive terminal (`--jsonl`, or stdin or
 * stderr not a TTY) a run that would pause is refused with exit 2 and a reason, never
 * left hanging.
 */
import { isAgentName, type AgentName } from '@shared/domain/agent';
import { parseBreakpoint } from '@shared/domain/debugger';
import { resolveAgentSettings, type ConfigAgentName } from '../runtime/config/resolve';
import type { WorkbenchConfig } from '../runtime/config/schema';
import { UsageError } from './usage-error';

export interface DebugOptions {
  breakpoints: string[];
  approveTools: string[];
  ignoreSaved: boolean;
  /** a person at a terminal can answer pauses (and Ctrl-\ pauses the run) */
  isInteractive: boolean;
}

export function resolveDebugOptions(input: {
  breaks: string[] | undefined;
  approves: string[] | undefined;
  noBreakpoints: boolean;
  isJsonl: boolean;
  config: WorkbenchConfig;
  agent: AgentName;
  isFlow: boolean;
  tty: { stdin: boolean; stderr: boolean };
}): DebugOptions {
  const breakpoints = (input.breaks ?? []).map((spec) => {
    const parsed = parseBreakpoint(spec);
    if (!parsed.ok) throw new UsageError(`--break: ${parsed.error}`);
    return spec.trim();
  });
  const approveTools = input.approves ?? [];
  for (const tool of approveTools) {
    if (!/^[A-Za-z0-9_.-]{1,128}$/.test(tool))
      throw new UsageError(`--approve needs a tool name (e.g. --approve bash), got "${tool}"`);
  }
  const isInteractive = !input.isJsonl && input.tty.stdin && input.tty.stderr;
  const whyNot = input.isJsonl
    ? 'with --jsonl stdout is the event stream and nobody answers at the terminal'
    : 'stdin or stderr is not a terminal';
  if (!isInteractive && (breakpoints.length > 0 || approveTools.length > 0)) {
    throw new UsageError(
      `${breakpoints.length > 0 ? '--break' : '--approve'} pauses the run for you to answer, but ${whyNot}; run it in an interactive terminal without --jsonl, or use the UI (workbench serve)`,
    );
  }
  const saved = input.noBreakpoints ? [] : savedDebugging(input.config, input.agent, input.isFlow);
  if (!isInteractive && saved.length > 0) {
    throw new UsageError(
      `config.toml sets ${saved.join(' and ')}, which pause the run for you to answer, but ${whyNot}; run it in an interactive terminal, or pass --no-breakpoints to run without them`,
    );
  }
  return { breakpoints, approveTools, ignoreSaved: input.noBreakpoints, isInteractive };
}

/** Which `[agent.NAME] breakpoints / approve_tools` the run would use. */
function savedDebugging(config: WorkbenchConfig, agent: AgentName, isFlow: boolean): string[] {
  // a user executor's breakpoints are in its definition's [run], not [agent.NAME]
  const agents: ConfigAgentName[] = isFlow
    ? ['planning', ...config.flow.planning.executors.filter(isAgentName)]
    : [agent];
  return [...new Set(agents)].flatMap((name) => {
    const settings = resolveAgentSettings(config, name);
    return [
      ...(settings.breakpoints?.length ? [`[agent.${name}] breakpoints`] : []),
      ...(settings.approveTools?.length ? [`[agent.${name}] approve_tools`] : []),
    ];
  });
}
