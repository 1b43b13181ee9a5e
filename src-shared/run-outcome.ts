/**
 * The one outcome model (docs/run-outcome.md): how a run, and each tool call, is judged
 * and labelled. The run header, the history, `workbench run` and `runs show`, and the
 * CLI's exit code all derive from these functions, so they can never disagree.
 *
 * - A run has one badge: running, paused (waiting in the debugger), finished, finished with N tool errors, finished with
 *   the agent reporting failure, max steps, cancelled, error or interrupted. Only a run
 *   that finished with no failed tool call and no reported failure is `good` (green).
 * - A tool call failed when it returned an error or its command exited non-zero; such a
 *   call is never "ok".
 */
import type { ToolFinishedEvent } from './events';
import type { RunHealth, RunSummary } from './domain/runs';

export type VerdictKind =
  | 'running'
  | 'paused'
  | 'finished'
  | 'finished_with_errors'
  | 'agent_failed'
  | 'max_steps'
  | 'cancelled'
  | 'error'
  | 'interrupted';

/** What the colour means: green only for `good`. */
export type VerdictTone = 'good' | 'warn' | 'bad' | 'neutral' | 'live';

export interface RunVerdict {
  kind: VerdictKind;
  /** the badge text, e.g. `finished with 2 tool errors` */
  label: string;
  tone: VerdictTone;
}

/** What each verdict's colour means (green only for a clean finish). */
const TONES: Record<VerdictKind, VerdictTone> = {
  running: 'live',
  paused: 'warn',
  finished: 'good',
  finished_with_errors: 'warn',
  agent_failed: 'bad',
  max_steps: 'warn',
  cancelled: 'neutral',
  error: 'bad',
  interrupted: 'bad',
};

type VerdictInput = Pick<
  RunSummary,
  'outcome' | 'isInterrupted' | 'isPaused' | 'health' | 'terminateStatus' | 'error'
>;

/**
 * A tool call failed: it returned an error, or its command exited non-zero. Since issue 25
 * `tool.finished.ok` is false for both; histories written before it say `ok: true` with
 * a non-zero `exitCode`, so the exit code is still read here and they count the same.
 */
export function isToolFailure(
  event: Pick<ToolFinishedEvent, 'ok' | 'exitCode' | 'skipped'>,
): boolean {
  // A call the user skipped did not fail: it was not run (its card says "skipped").
  if (event.skipped === true) return false;
  return !event.ok || (event.exitCode !== undefined && event.exitCode !== 0);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function runVerdict(summary: VerdictInput): RunVerdict {
  const toolErrors = summary.health?.toolErrors ?? 0;
  switch (summary.outcome) {
    case undefined:
      if (summary.isInterrupted)
        return { kind: 'interrupted', label: 'interrupted', tone: TONES.interrupted };
      // Waiting in the debugger (a breakpoint, an approval, a pause): not doing anything.
      if (summary.isPaused) return { kind: 'paused', label: 'paused', tone: TONES.paused };
      return { kind: 'running', label: 'running', tone: TONES.running };
    case 'finished': {
      const errors = toolErrors > 0 ? ` with ${plural(toolErrors, 'tool error')}` : '';
      if (summary.terminateStatus === 'failure') {
        return {
          kind: 'agent_failed',
          label: `finished${errors}: the agent reported failure`,
          tone: TONES.agent_failed,
        };
      }
      if (toolErrors > 0)
        return {
          kind: 'finished_with_errors',
          label: `finished${errors}`,
          tone: TONES.finished_with_errors,
        };
      return { kind: 'finished', label: 'finished', tone: TONES.finished };
    }
    case 'max_steps':
      return { kind: 'max_steps', label: 'max steps reached', tone: TONES.max_steps };
    case 'cancelled':
      return { kind: 'cancelled', label: 'cancelled', tone: TONES.cancelled };
    case 'error':
      return { kind: 'error', label: 'error', tone: TONES.error };
  }
}

/**
 * The CLI's exit code for a verdict (README, docs/run-outcome.md): 0 finished (tool
 * errors along the way included: the agent recovered and finished), 1 error or the agent
 * reported failure, 3 max steps, 130 cancelled or interrupted.
 */
export function verdictExitCode(kind: VerdictKind): number {
  switch (kind) {
    case 'finished':
    case 'finished_with_errors':
      return 0;
    case 'max_steps':
      return 3;
    case 'cancelled':
    case 'interrupted':
      return 130;
    case 'agent_failed':
    case 'error':
    case 'running':
    case 'paused':
      return 1;
  }
}

/** `steps 4/20`: never a bare `4/20`, which reads like a date. */
export function stepsText(summary: Pick<RunSummary, 'steps' | 'maxSteps'>): string {
  return summary.maxSteps > 0
    ? `steps ${summary.steps}/${summary.maxSteps}`
    : `steps ${summary.steps}`;
}

export type HealthKey = Exclude<keyof RunHealth, 'toolCalls'>;

export interface HealthPart {
  key: HealthKey;
  count: number;
  text: string;
}

/**
 * The non-zero parts of a run's health line, worst first: tool errors, stuck detections,
 * duplicate responses, model retries. Empty for a clean run.
 */
export function healthParts(health: RunHealth | undefined): HealthPart[] {
  if (!health) return [];
  const parts: HealthPart[] = [
    {
      key: 'toolErrors',
      count: health.toolErrors,
      text: `${plural(health.toolErrors, 'tool error')} of ${health.toolCalls}`,
    },
    { key: 'stuck', count: health.stuck, text: `stuck ${health.stuck}×` },
    { key: 'duplicates', count: health.duplicates, text: plural(health.duplicates, 'duplicate') },
    { key: 'retries', count: health.retries, text: plural(health.retries, 'retry', 'retries') },
  ];
  return parts.filter((p) => p.count > 0);
}

/** The run needs a look: it failed, or tool calls failed along the way. */
export function hasErrors(summary: VerdictInput): boolean {
  const kind = runVerdict(summary).kind;
  return (
    kind === 'error' ||
    kind === 'agent_failed' ||
    kind === 'interrupted' ||
    (summary.health?.toolErrors ?? 0) > 0
  );
}

export function wasStuck(summary: Pick<RunSummary, 'health'>): boolean {
  return (summary.health?.stuck ?? 0) > 0;
}

/** The verdicts of several runs (a batch cell, a batch in the history), worst first. */
const TALLY_ORDER: readonly { kind: VerdictKind; one: string; many?: string }[] = [
  { kind: 'error', one: 'error', many: 'errors' },
  { kind: 'interrupted', one: 'interrupted' },
  { kind: 'agent_failed', one: 'reported failure', many: 'reported failure' },
  { kind: 'max_steps', one: 'max steps reached' },
  { kind: 'finished_with_errors', one: 'finished with tool errors' },
  { kind: 'finished', one: 'finished' },
  { kind: 'cancelled', one: 'cancelled' },
  { kind: 'paused', one: 'paused' },
  { kind: 'running', one: 'running' },
];

export type VerdictTally = Partial<Record<VerdictKind, number>>;

/** Counts `runVerdict` over runs: the same kinds the history's badges show. */
export function tallyVerdicts(summaries: Iterable<VerdictInput>): VerdictTally {
  const tally: VerdictTally = {};
  for (const summary of summaries) {
    const kind = runVerdict(summary).kind;
    tally[kind] = (tally[kind] ?? 0) + 1;
  }
  return tally;
}

export interface TallyPart {
  kind: VerdictKind;
  count: number;
  /** `2 finished with tool errors` */
  text: string;
  tone: VerdictTone;
}

/** A tally as words, worst first, without the kinds no run got. */
export function tallyParts(tally: VerdictTally): TallyPart[] {
  return TALLY_ORDER.flatMap(({ kind, one, many }) => {
    const count = tally[kind] ?? 0;
    if (count === 0) return [];
    return [
      { kind, count, text: `${count} ${count === 1 ? one : (many ?? one)}`, tone: TONES[kind] },
    ];
  });
}
