/**
 * A batch's plan: the task file read (JSONL, one task a line), and every (task, profile,
 * repeat) item it stands for. Written once when the batch starts; a resume reads it back.
 */
import { randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { AgentName } from '@shared/domain/agent';
import {
  columnAgentLabel,
  type BatchColumnAgent,
  type BatchItem,
  type BatchPlan,
  type BatchTask,
} from '@shared/domain/batch';
import { isWithin } from '../util/contained-path';

export class BatchPlanError extends Error {}

const TASK_KEYS = new Set(['task', 'workspace', 'check']);
/** far more than a machine runs in a day: a typo (--repeat 10000) should not plan it */
export const MAX_BATCH_RUNS = 5_000;

/**
 * Parses a task file: each non-empty line `{"task": "...", "workspace"?: "dir",
 * "check"?: "cmd"}`. A workspace is a folder beside the file: relative to the file's
 * folder and, links followed, inside it. A task file is often someone else's (a
 * benchmark's): it must not name `/etc` or `../../.ssh` and have it copied into every
 * sandbox (issue 24 item 4). The run then admits the folder like any other
 * (launch/workspace-gate.ts).
 */
export function parseTaskLines(text: string, file: string): BatchTask[] {
  const tasks: BatchTask[] = [];
  const base = dirname(resolve(file));
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const where = `${file} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new BatchPlanError(`${where} is not JSON (one task object a line)`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new BatchPlanError(`${where} is not an object like {"task": "..."}`);
    const record = value as Record<string, unknown>;
    const unknown = Object.keys(record).filter((k) => !TASK_KEYS.has(k));
    if (unknown.length > 0)
      throw new BatchPlanError(
        `${where}: unknown key "${unknown[0]}" (keys: task, workspace, check)`,
      );
    const { task, workspace, check } = record;
    if (typeof task !== 'string' || task.trim() === '')
      throw new BatchPlanError(`${where}: "task" must be a non-empty string`);
    if (workspace !== undefined && typeof workspace !== 'string')
      throw new BatchPlanError(`${where}: "workspace" must be a folder path`);
    if (check !== undefined && (typeof check !== 'string' || check.trim() === ''))
      throw new BatchPlanError(`${where}: "check" must be a non-empty command`);
    const entry: BatchTask = { task };
    if (workspace !== undefined) entry.workspace = taskFolder(workspace, base, where);
    if (check !== undefined) entry.check = check;
    tasks.push(entry);
  }
  if (tasks.length === 0) throw new BatchPlanError(`${file} has no tasks`);
  return tasks;
}

export interface BatchPlanInput {
  agent: AgentName;
  tasks: BatchTask[];
  /** empty: one column, the agent's own profile (null: the agent's own, an experiment's variant) */
  profiles: (string | null)[];
  repeat: number;
  concurrency: number;
  maxSteps?: number;
  /** the check of tasks that name none */
  check?: string;
  /** an experiment's variants: the agent of each profile column (BatchPlan.agents) */
  agents?: BatchColumnAgent[];
}

export function createBatchPlan(input: BatchPlanInput, now = Date.now()): BatchPlan {
  const profiles: (string | null)[] = input.profiles.length > 0 ? [...input.profiles] : [null];
  const agents = input.agents;
  if (agents !== undefined && agents.length !== profiles.length)
    throw new BatchPlanError('an agent is needed for each profile column');
  const columns = profiles.map(
    (p, i) => `${agents?.[i] ? columnAgentLabel(agents[i]) : ''}\u0000${p ?? ''}`,
  );
  if (new Set(columns).size !== columns.length)
    throw new BatchPlanError(
      agents ? 'a variant (agent and profile) is named twice' : 'a profile is named twice',
    );
  const tasks = input.tasks.map((t) =>
    t.check === undefined && input.check !== undefined ? { ...t, check: input.check } : t,
  );
  const total = tasks.length * profiles.length * input.repeat;
  if (total > MAX_BATCH_RUNS)
    throw new BatchPlanError(`the batch would be ${total} runs (at most ${MAX_BATCH_RUNS})`);
  const items: BatchItem[] = [];
  // Repeats outermost: the first round fills every cell once before any cell gets its second.
  for (let repeat = 0; repeat < input.repeat; repeat++)
    for (let taskIndex = 0; taskIndex < tasks.length; taskIndex++)
      for (let profileIndex = 0; profileIndex < profiles.length; profileIndex++)
        items.push({
          key: `t${taskIndex}-p${profileIndex}-r${repeat}`,
          taskIndex,
          profileIndex,
          repeat,
        });
  return {
    version: 1,
    batchId: newBatchId(now),
    createdAt: now,
    agent: input.agent,
    tasks,
    profiles,
    ...(agents ? { agents: agents.map((a) => ({ ...a })) } : {}),
    repeat: input.repeat,
    concurrency: input.concurrency,
    ...(input.maxSteps !== undefined ? { maxSteps: input.maxSteps } : {}),
    items,
  };
}

/** Sortable by time, unique, safe as a folder name. */
function newBatchId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..+$/, '');
  return `b-${stamp}-${randomUUID().slice(0, 6)}`;
}

/** The real path of a task's workspace, which must be a folder inside the file's folder. */
function taskFolder(workspace: string, base: string, where: string): string {
  const beside = `a task's workspace is a folder beside the task file (relative to ${base})`;
  if (workspace.includes('\0')) throw new BatchPlanError(`${where}: the workspace has a NUL byte`);
  if (isAbsolute(workspace)) {
    throw new BatchPlanError(`${where}: the workspace "${workspace}" is absolute; ${beside}`);
  }
  const path = resolve(base, workspace);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new BatchPlanError(`${where}: the workspace ${path} is not a folder`);
  }
  if (!statSync(real).isDirectory())
    throw new BatchPlanError(`${where}: the workspace ${path} is not a folder`);
  const realBase = realpathSync(base);
  if (!isWithin(realBase, real)) {
    throw new BatchPlanError(
      `${where}: the workspace "${workspace}" leads to ${real}, outside the task file's folder; ${beside}`,
    );
  }
  return real;
}
