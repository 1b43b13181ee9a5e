/**
 * An experiment file (TOML, docs/experiments.md): the dataset, the variants (an agent
 * spec and a profile each), the repeats and the scorers. Every mistake is said with the
 * file, the key and what to write instead.
 */
import { dirname, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import type { ExperimentVariant } from '@shared/experiments/experiment-types';
import {
  SCORER_KINDS,
  type AnswerMatch,
  type ScorerSpec,
  type TrajectoryMetric,
} from '@shared/experiments/scorer-types';
import { readRegularFile } from '../util/read-regular-file';

export class ExperimentFileError extends Error {}

export interface ExperimentFile {
  path: string;
  name: string;
  /** the dataset's path, resolved against the experiment file's folder */
  dataset: string;
  variants: ExperimentVariant[];
  repeats: number;
  concurrency?: number;
  maxSteps?: number;
  scorers: ScorerSpec[];
}

const TOP_KEYS = ['name', 'dataset', 'repeats', 'concurrency', 'max_steps', 'variants', 'scorers'];
const MATCHES: readonly AnswerMatch[] = ['exact', 'contains', 'regex', 'json_schema', 'numeric'];
const METRICS: readonly TrajectoryMetric[] = [
  'steps',
  'cost',
  'tool_errors',
  'stuck',
  'duplicates',
];
/** an agent spec: a built-in or file agent's name, optionally `@version` (issue 28) */
const AGENT_SPEC = /^[A-Za-z0-9][A-Za-z0-9._-]*(@[A-Za-z0-9._-]+)?$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

export function readExperimentFile(file: string): ExperimentFile {
  const path = resolve(file);
  const text = readRegularFile(path, 1024 * 1024, 'The experiment file');
  let raw: Record<string, unknown>;
  try {
    raw = parse(text) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError ? ` line ${error.line}` : '';
    throw new ExperimentFileError(
      `${path}${where} is not TOML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const fail = (key: string, message: string): never => {
    throw new ExperimentFileError(`${path}: ${key} ${message}`);
  };
  for (const key of Object.keys(raw))
    if (!TOP_KEYS.includes(key))
      fail(key, `is not a key of an experiment (keys: ${TOP_KEYS.join(', ')})`);
  const dataset = raw.dataset;
  if (typeof dataset !== 'string' || dataset === '')
    fail(
      'dataset',
      'must name the dataset file, e.g. dataset = "items.jsonl" (relative to this file)',
    );
  const repeats = raw.repeats ?? 1;
  if (typeof repeats !== 'number' || !Number.isInteger(repeats) || repeats < 1 || repeats > 100)
    fail('repeats', 'must be a whole number from 1 to 100, e.g. repeats = 3');
  const concurrency = optionalCount(raw.concurrency, 'concurrency', fail);
  const maxSteps = optionalCount(raw.max_steps, 'max_steps', fail);
  const name = raw.name ?? (dataset as string).replace(/^.*\//, '').replace(/\.jsonl$/, '');
  if (typeof name !== 'string' || name.trim() === '') fail('name', 'must be a text');
  const variants = tableList(raw.variants, 'variants', fail).map((v, i) =>
    variantOf(v, `variants[${i + 1}]`, fail),
  );
  if (variants.length === 0)
    fail('variants', 'are missing: add [[variants]] tables with name, agent and profile');
  const seen = new Set<string>();
  for (const v of variants) {
    if (seen.has(v.name)) fail('variants', `name "${v.name}" twice; names must be unique`);
    seen.add(v.name);
  }
  const scorers = tableList(raw.scorers, 'scorers', fail).map((s, i) =>
    scorerOf(s, `scorers[${i + 1}]`, fail),
  );
  if (scorers.length === 0)
    fail('scorers', 'are missing: add [[scorers]] tables (name, kind, ...)');
  const names = new Set<string>();
  for (const s of scorers) {
    if (names.has(s.name)) fail('scorers', `name "${s.name}" twice; names must be unique`);
    names.add(s.name);
  }
  return {
    path,
    name: name as string,
    dataset: resolve(dirname(path), dataset as string),
    variants,
    repeats: repeats as number,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    scorers,
  };
}

type Fail = (key: string, message: string) => never;

function optionalCount(value: unknown, key: string, fail: Fail): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    fail(key, 'must be a whole number of at least 1');
  return value as number;
}

function tableList(value: unknown, key: string, fail: Fail): Record<string, unknown>[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    value.some((v) => typeof v !== 'object' || v === null || Array.isArray(v))
  )
    fail(key, `must be [[${key}]] tables`);
  return value as Record<string, unknown>[];
}

function keysOnly(table: Record<string, unknown>, keys: string[], where: string, fail: Fail): void {
  for (const key of Object.keys(table))
    if (!keys.includes(key))
      fail(`${where}.${key}`, `is not a key here (keys: ${keys.join(', ')})`);
}

function text(
  table: Record<string, unknown>,
  key: string,
  where: string,
  fail: Fail,
  example: string,
): string {
  const value = table[key];
  if (typeof value !== 'string' || value.trim() === '')
    fail(`${where}.${key}`, `must be a text, e.g. ${key} = ${example}`);
  return value as string;
}

function variantOf(table: Record<string, unknown>, where: string, fail: Fail): ExperimentVariant {
  keysOnly(table, ['name', 'agent', 'profile'], where, fail);
  const name = text(table, 'name', where, fail, '"baseline"');
  if (!NAME.test(name))
    fail(`${where}.name`, 'must be 1-64 letters, digits, spaces, ".", "_" or "-"');
  const agent = text(table, 'agent', where, fail, '"toolcall" (or "name@version")');
  if (!AGENT_SPEC.test(agent))
    fail(`${where}.agent`, `"${agent}" is not an agent name or name@version`);
  const profile = table.profile;
  if (profile !== undefined && (typeof profile !== 'string' || profile === ''))
    fail(`${where}.profile`, "must name an [llm.NAME] profile (or leave it out: the agent's own)");
  return { name, agent, profile: (profile as string | undefined) ?? null };
}

function scorerOf(table: Record<string, unknown>, where: string, fail: Fail): ScorerSpec {
  const name = text(table, 'name', where, fail, '"answer"');
  const kind = table.kind;
  if (typeof kind !== 'string' || !(SCORER_KINDS as readonly string[]).includes(kind))
    fail(`${where}.kind`, `must be one of ${SCORER_KINDS.join(', ')}`);
  const threshold = table.threshold;
  if (threshold !== undefined && (typeof threshold !== 'number' || threshold < 0 || threshold > 1))
    fail(`${where}.threshold`, 'must be a number from 0 to 1');
  const base = { name, ...(threshold !== undefined ? { threshold: threshold as number } : {}) };
  const common = ['name', 'kind', 'threshold'];
  switch (kind as ScorerSpec['kind']) {
    case 'shell': {
      keysOnly(table, [...common, 'command'], where, fail);
      const command = table.command;
      if (command !== undefined && (typeof command !== 'string' || command.trim() === ''))
        fail(`${where}.command`, "must be a shell command (or leave it out: each item's check)");
      return { ...base, kind: 'shell', command: (command as string | undefined) ?? '' };
    }
    case 'answer': {
      keysOnly(
        table,
        [...common, 'match', 'expected', 'schema', 'tolerance', 'ignore_case'],
        where,
        fail,
      );
      const match = table.match ?? 'exact';
      if (typeof match !== 'string' || !(MATCHES as readonly string[]).includes(match))
        fail(`${where}.match`, `must be one of ${MATCHES.join(', ')}`);
      const schema = table.schema;
      if (
        match === 'json_schema' &&
        (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      )
        fail(
          `${where}.schema`,
          'must be a table, e.g. schema = { type = "object", required = ["city"] }',
        );
      const tolerance = table.tolerance;
      if (tolerance !== undefined && (typeof tolerance !== 'number' || tolerance < 0))
        fail(`${where}.tolerance`, 'must be a number of at least 0');
      const expected = table.expected;
      if (expected !== undefined && typeof expected !== 'string')
        fail(`${where}.expected`, 'must be a text');
      const ignoreCase = table.ignore_case;
      if (ignoreCase !== undefined && typeof ignoreCase !== 'boolean')
        fail(`${where}.ignore_case`, 'must be true or false');
      return {
        ...base,
        kind: 'answer',
        match: match as AnswerMatch,
        ...(expected !== undefined ? { expected: expected as string } : {}),
        ...(schema !== undefined ? { schema: schema as Record<string, unknown> } : {}),
        ...(tolerance !== undefined ? { tolerance: tolerance as number } : {}),
        ...(ignoreCase !== undefined ? { ignoreCase: ignoreCase as boolean } : {}),
      };
    }
    case 'file': {
      keysOnly(table, [...common, 'path', 'equals'], where, fail);
      const path = text(table, 'path', where, fail, '"out.txt" (relative to the workspace)');
      const equals = table.equals;
      if (equals !== undefined && typeof equals !== 'string')
        fail(`${where}.equals`, 'must be a text');
      return {
        ...base,
        kind: 'file',
        path,
        ...(equals !== undefined ? { equals: equals as string } : {}),
      };
    }
    case 'trajectory': {
      keysOnly(table, [...common, 'metric', 'max'], where, fail);
      const metric = table.metric;
      if (typeof metric !== 'string' || !(METRICS as readonly string[]).includes(metric))
        fail(`${where}.metric`, `must be one of ${METRICS.join(', ')}`);
      const max = table.max;
      if (typeof max !== 'number' || max < 0)
        fail(`${where}.max`, 'must be a number of at least 0');
      return {
        ...base,
        kind: 'trajectory',
        metric: metric as TrajectoryMetric,
        max: max as number,
      };
    }
    case 'judge': {
      keysOnly(table, [...common, 'profile', 'rubric'], where, fail);
      const profile = text(table, 'profile', where, fail, '"judge" (an [llm.NAME] profile)');
      const rubric = text(
        table,
        'rubric',
        where,
        fail,
        '"1 when the answer is correct and complete"',
      );
      return { ...base, kind: 'judge', profile, rubric };
    }
  }
}
