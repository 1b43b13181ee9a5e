/**
 * The "Run an experiment" form (issue 31): its values as typed, and the request they make
 * (`experiments:start`), each mistake said with the field. The runtime checks the rest
 * (profiles exist, the dataset loads, an empty shell command needs every item's check).
 */
import type { ExperimentStartInput, ScorerSpec } from '@shared/domain/experiments';
import type { ScorerKind } from '@shared/experiments/scorer-types';

export interface VariantRow {
  name: string;
  agent: string;
  /** '' : the agent's own profile */
  profile: string;
}

/** One scorer as typed: the kind's fields as text (what each means: SCORER_FIELDS). */
export interface ScorerRow {
  kind: ScorerKind;
  name: string;
  threshold: string;
  fields: Record<string, string>;
}

export interface ExperimentFormValues {
  name: string;
  dataset: string;
  variants: VariantRow[];
  scorers: ScorerRow[];
  repeats: string;
  concurrency: string;
}

/** The fields each kind of scorer has, with a hint (docs/experiments.md, "Scorers"). */
export const SCORER_FIELDS: Record<ScorerKind, { key: string; label: string; hint: string }[]> = {
  shell: [{ key: 'command', label: 'Command', hint: "empty: each item's check" }],
  answer: [
    { key: 'match', label: 'Match', hint: 'exact | contains | regex | json_schema | numeric' },
    { key: 'tolerance', label: 'Tolerance', hint: 'numeric: the largest difference' },
    { key: 'schema', label: 'Schema', hint: 'json_schema: a JSON object' },
  ],
  file: [
    { key: 'path', label: 'Path', hint: 'in the workspace' },
    { key: 'equals', label: 'Equals', hint: 'empty: the file only has to exist' },
  ],
  trajectory: [
    { key: 'metric', label: 'Metric', hint: 'steps | cost | tool_errors | stuck | duplicates' },
    { key: 'max', label: 'At most', hint: 'a number' },
  ],
  judge: [
    { key: 'profile', label: 'Profile', hint: 'the [llm.NAME] the judge runs on' },
    { key: 'rubric', label: 'Rubric', hint: 'what scores 1 and what 0' },
  ],
};

export function newScorerRow(kind: ScorerKind, name: string = kind): ScorerRow {
  const fields: Record<string, string> = {};
  for (const f of SCORER_FIELDS[kind]) fields[f.key] = '';
  if (kind === 'answer') fields.match = 'contains';
  if (kind === 'trajectory') fields.metric = 'steps';
  return { kind, name, threshold: '', fields };
}

export const EMPTY_EXPERIMENT_FORM: ExperimentFormValues = {
  name: '',
  dataset: '',
  variants: [
    { name: 'A', agent: 'swe', profile: '' },
    { name: 'B', agent: 'swe', profile: '' },
  ],
  scorers: [newScorerRow('answer', 'answer')],
  repeats: '1',
  concurrency: '2',
};

type Parsed = { ok: true; input: ExperimentStartInput } | { ok: false; error: string };

export function experimentInputOf(v: ExperimentFormValues): Parsed {
  const fail = (error: string): Parsed => ({ ok: false, error });
  if (v.name.trim() === '') return fail('Name: give the experiment a name');
  if (v.dataset === '') return fail('Dataset: pick a dataset (or make one below)');
  const repeats = wholeNumber(v.repeats, 1, 100);
  if (repeats === undefined) return fail('Repeats: a whole number from 1 to 100');
  const concurrency = wholeNumber(v.concurrency, 1, 64);
  if (concurrency === undefined) return fail('Concurrency: a whole number from 1 to 64');
  if (v.variants.length === 0) return fail('Variants: add at least one');
  const names = new Set<string>();
  for (const [i, row] of v.variants.entries()) {
    const name = row.name.trim();
    if (name === '') return fail(`Variant ${i + 1}: give it a name`);
    if (names.has(name)) return fail(`Variant ${i + 1}: the name "${name}" is used twice`);
    names.add(name);
    if (row.agent.trim() === '') return fail(`Variant ${name}: pick an agent`);
  }
  if (v.scorers.length === 0) return fail('Scorers: add at least one');
  const scorers: ScorerSpec[] = [];
  const scorerNames = new Set<string>();
  for (const [i, row] of v.scorers.entries()) {
    const scorer = scorerOf(row);
    if (typeof scorer === 'string') return fail(`Scorer ${i + 1} (${row.name}): ${scorer}`);
    if (scorerNames.has(scorer.name))
      return fail(`Scorer ${i + 1}: the name "${scorer.name}" is used twice`);
    scorerNames.add(scorer.name);
    scorers.push(scorer);
  }
  return {
    ok: true,
    input: {
      name: v.name.trim(),
      dataset: v.dataset,
      variants: v.variants.map((row) => ({
        name: row.name.trim(),
        agent: row.agent.trim(),
        ...(row.profile !== '' ? { profile: row.profile } : {}),
      })),
      repeats,
      scorers,
      concurrency,
    },
  };
}

/** A scorer row as the request's spec, or what is wrong with it. */
function scorerOf(row: ScorerRow): ScorerSpec | string {
  const name = row.name.trim();
  if (name === '') return 'give it a name';
  let threshold: number | undefined;
  if (row.threshold.trim() !== '') {
    threshold = Number(row.threshold);
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
      return 'the threshold is a number from 0 to 1';
  }
  const base = { name, ...(threshold !== undefined ? { threshold } : {}) };
  const f = (key: string) => (row.fields[key] ?? '').trim();
  switch (row.kind) {
    case 'shell':
      return { ...base, kind: 'shell', command: f('command') };
    case 'answer': {
      const match = f('match') || 'exact';
      if (!['exact', 'contains', 'regex', 'json_schema', 'numeric'].includes(match))
        return 'match is exact, contains, regex, json_schema or numeric';
      let schema: Record<string, unknown> | undefined;
      if (match === 'json_schema') {
        try {
          schema = JSON.parse(f('schema')) as Record<string, unknown>;
        } catch {
          return 'the schema must be a JSON object, e.g. {"type": "object"}';
        }
        if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
          return 'the schema must be a JSON object, e.g. {"type": "object"}';
      }
      const tolerance = f('tolerance') === '' ? undefined : Number(f('tolerance'));
      if (tolerance !== undefined && (!Number.isFinite(tolerance) || tolerance < 0))
        return 'the tolerance is a number of at least 0';
      return {
        ...base,
        kind: 'answer',
        match: match as 'exact',
        ...(schema ? { schema } : {}),
        ...(tolerance !== undefined ? { tolerance } : {}),
      };
    }
    case 'file':
      if (f('path') === '') return 'give the path of a file in the workspace';
      return {
        ...base,
        kind: 'file',
        path: f('path'),
        ...(row.fields.equals ? { equals: row.fields.equals } : {}),
      };
    case 'trajectory': {
      const metric = f('metric');
      if (!['steps', 'cost', 'tool_errors', 'stuck', 'duplicates'].includes(metric))
        return 'the metric is steps, cost, tool_errors, stuck or duplicates';
      const max = Number(f('max'));
      if (f('max') === '' || !Number.isFinite(max) || max < 0)
        return '"at most" is a number of at least 0';
      return { ...base, kind: 'trajectory', metric: metric as 'steps', max };
    }
    case 'judge':
      if (f('profile') === '') return 'pick the profile the judge runs on';
      if (f('rubric') === '') return 'write the rubric';
      return { ...base, kind: 'judge', profile: f('profile'), rubric: f('rubric') };
  }
}

function wholeNumber(text: string, min: number, max: number): number | undefined {
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}
