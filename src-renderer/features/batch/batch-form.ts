/**
 * The Batch view's form as a `batch:start` input: one task a line (a line that starts
 * with `{` is a JSON task line as in a task file: task, workspace, check), the profiles
 * checked in the list, numbers checked. Pure, so it is tested without a DOM.
 */
import { AGENT_NAMES, type AgentName } from '@shared/domain/agent';
import type { BatchStartInput, BatchTask } from '@shared/ipc';

export interface BatchFormValues {
  tasks: string;
  agent: string;
  /** the profiles checked, one column each; none: the agent's own */
  profiles: string[];
  repeat: string;
  concurrency: string;
  check: string;
}

export const EMPTY_BATCH_FORM: BatchFormValues = {
  tasks: '',
  agent: 'swe',
  profiles: [],
  repeat: '1',
  concurrency: '2',
  check: '',
};

export type FormResult = { ok: true; input: BatchStartInput } | { ok: false; error: string };

export function batchInputOf(values: BatchFormValues): FormResult {
  const tasks: BatchTask[] = [];
  for (const [index, raw] of values.tasks.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (!line.startsWith('{')) {
      tasks.push({ task: line });
      continue;
    }
    try {
      const parsed = JSON.parse(line) as Partial<BatchTask>;
      if (typeof parsed.task !== 'string' || parsed.task.trim() === '')
        return { ok: false, error: `Line ${index + 1}: "task" must be a non-empty string` };
      tasks.push({
        task: parsed.task,
        ...(typeof parsed.workspace === 'string' ? { workspace: parsed.workspace } : {}),
        ...(typeof parsed.check === 'string' ? { check: parsed.check } : {}),
      });
    } catch {
      return { ok: false, error: `Line ${index + 1} starts with "{" but is not JSON` };
    }
  }
  if (tasks.length === 0) return { ok: false, error: 'Give at least one task (one a line)' };
  if (!(AGENT_NAMES as readonly string[]).includes(values.agent))
    return { ok: false, error: `Unknown agent "${values.agent}"` };
  const repeat = Number(values.repeat);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100)
    return { ok: false, error: 'Repeat must be a whole number from 1 to 100' };
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    return { ok: false, error: 'Concurrency must be a whole number from 1 to 64' };
  const profiles = [...values.profiles];
  if (new Set(profiles).size !== profiles.length)
    return { ok: false, error: 'A profile is named twice' };
  const check = values.check.trim();
  return {
    ok: true,
    input: {
      agent: values.agent as AgentName,
      tasks,
      profiles,
      repeat,
      concurrency,
      ...(check ? { check } : {}),
    },
  };
}

/** "3 of 12 done, 2 running, 7 queued, about 40 s left" */
export function progressText(p: {
  done: number;
  total: number;
  running: number;
  queued: number;
  etaMs?: number;
  isStopped: boolean;
  isComplete: boolean;
}): string {
  const counts = `${p.done} of ${p.total} done, ${p.running} running, ${p.queued} queued`;
  if (p.isComplete) return `${counts}: complete`;
  if (p.isStopped && p.running === 0) return `${counts}: stopped`;
  return p.etaMs !== undefined ? `${counts}, about ${formatSeconds(p.etaMs)} left` : counts;
}

export function formatSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
