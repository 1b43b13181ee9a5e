import { describeEdit, describePauseReason, formatBreakpoint } from '@shared/domain/debugger';
import type { RunEvent } from '@shared/events';
import { terminalSafe } from './terminal-text';
import { isToolFailure } from '@shared/run-outcome';

/**
 * One human-readable line per interesting event (stderr), or null to stay quiet. Model
 * and tool text can carry terminal escape sequences: none reaches the terminal raw.
 */
export function formatEvent(event: RunEvent): string | null {
  const line = describeEvent(event);
  return line === null ? null : terminalSafe(line);
}

function describeEvent(event: RunEvent): string | null {
  switch (event.type) {
    case 'run.started': {
      const prompt = event.prompt
        ? `\n  from MCP prompt ${event.prompt.server}/${event.prompt.name}`
        : '';
      const line = `▶ run ${event.runId}: ${event.agent} on ${event.model} (max ${event.maxSteps} steps)${prompt}\n  task: ${oneLine(event.task)}`;
      // a continuation says what it goes on with (its task is only the follow-up)
      const from = event.continueOf;
      return from ? `${line}\n  continues run ${from.runId} after its step ${from.step}` : line;
    }
    case 'state.changed':
      return `  state ${event.from} → ${event.to}`;
    case 'step.started':
      return `— step ${event.step}/${event.maxSteps}`;
    case 'memory.appended': {
      const m = event.message;
      if (m.role === 'assistant' && m.content) return `  assistant: ${oneLine(m.content)}`;
      return null;
    }
    case 'memory.truncated':
      return `  memory: ${event.dropped.length} old message(s) left the window of ${event.window}`;
    case 'tool.started':
      return `  ⚙ ${event.name} ${oneLine(typeof event.args === 'string' ? event.args : JSON.stringify(event.args))}`;
    case 'tool.finished': {
      // A command that exited non-zero failed, whatever else it printed (never a ✓).
      const exit = event.exitCode !== undefined ? ` (exit ${event.exitCode})` : '';
      if (!isToolFailure(event)) return `  ✓ ${event.name}${exit}: ${oneLine(event.output)}`;
      return `  ✗ ${event.name}${exit}: ${oneLine(event.error ?? event.output)}`;
    }
    case 'tool.progress':
      return `  … ${event.name} ${event.progress}${event.total !== undefined ? `/${event.total}` : ''}${event.message ? `: ${oneLine(event.message)}` : ''}`;
    case 'llm.retried':
      return `  ↻ model call failed${event.status !== null ? ` (${event.status})` : ''}; retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s: ${oneLine(event.error)}`;
    case 'stuck.detected':
      return `  ⚠ stuck: ${event.kind === 'content' ? 'the same reply' : 'the same tool calls'} ${event.count}× (earlier: #${event.duplicateOf.join(', #')}); nudging the model to change strategy`;
    case 'sandbox.changed':
      if (event.status === 'queued') return `  sandbox: ${oneLine(event.progress ?? 'queued')}`;
      // Several engines: say where the sandbox went (one engine: nothing new to say).
      if (event.status === 'ready' && event.engine) return `  sandbox on ${event.engine}`;
      return event.status === 'failed'
        ? `  sandbox failed: ${oneLine(event.error ?? 'unknown error')}`
        : null;
    case 'llm.queued':
      return event.reason === 'rate_limited'
        ? `  … ${event.model} rests ${((event.delayMs ?? 0) / 1000).toFixed(1)} s after a 429 (this profile only)`
        : `  … ${event.model}: ${event.capacity ?? '?'} calls of this profile in flight, ${event.ahead ?? 0} ahead (max_concurrency)`;
    case 'mcp.log':
      // a server's log message, compact: [mcp SERVER] level logger: text
      return `  [mcp ${event.server}] ${event.level}${event.logger ? ` ${event.logger}` : ''}: ${oneLine(event.data)}${event.omitted ? ` (${event.omitted} earlier message(s) left out)` : ''}`;
    case 'check.finished':
      return event.ok
        ? `  ✓ check passed: ${oneLine(event.command)}`
        : `  ✗ check failed${event.exitCode !== null ? ` (exit ${event.exitCode})` : ''}: ${oneLine(event.command)}${event.error ? `: ${oneLine(event.error)}` : ''}`;
    case 'score.recorded': {
      // an experiment's scorer (docs/experiments.md): the score, and why
      const judge = event.judge ? ` (judge ${event.judge.model})` : '';
      return `  ${event.passed ? '✓' : '✗'} score ${event.scorer} ${Number(event.score.toFixed(3))}${judge}: ${oneLine(event.explanation)}`;
    }
    case 'checkpoint.limited':
      // a snapshot limit: what a fork from here will miss, or that snapshots stopped
      return `  ⚠ ${oneLine(event.message, 400)}`;
    case 'run.finished': {
      const tokens = `${event.usage.prompt} prompt + ${event.usage.completion} completion tokens`;
      return `■ ${event.outcome} after ${event.steps} steps (${tokens})${event.error ? `: ${event.error}` : ''}`;
    }
    case 'run.paused':
      return `⏸ paused at step ${event.step} (${event.agent}, ${event.point.replace('_', ' ')}): ${event.reasons.map(describePauseReason).join('; ')}`;
    case 'run.resumed':
      return `▶ resumed by the ${event.by === 'ui' ? 'UI' : 'terminal'}${event.mode === 'continue' ? '' : ` (step: ${event.mode === 'model' ? 'the model call' : 'one cycle'})`} after ${(event.pausedMs / 1000).toFixed(1)} s`;
    case 'run.edited':
      return `  ✎ ${event.by === 'ui' ? 'UI' : 'terminal'} ${describeEdit(event.edit)}`;
    case 'breakpoints.changed': {
      const list = event.breakpoints.map((b) => `${b.id} ${formatBreakpoint(b.condition)}`);
      const approvals = event.approvals.map((r) => (r.agent ? `${r.tool} (${r.agent})` : r.tool));
      return `  ● breakpoints: ${list.join(', ') || 'none'}${approvals.length > 0 ? `; approval before ${approvals.join(', ')}` : ''}`;
    }
    default:
      return null;
  }
}

export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
