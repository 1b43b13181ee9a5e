/**
 * What `workbench runs diff` prints: the summary of both runs side by side, the settings
 * that differ, then each aligned difference with its fields diffed (words inline as
 * `[-old-]{+new+}`, lines as `-`/`+` lines, like `git diff --word-diff`). `--json` gives
 * the same facts as one object for scripts.
 */
import { rowLabel } from '@shared/compare/diff-runs';
import { stepFieldDiffs, type FieldDiff } from '@shared/compare/step-diff';
import { diffText } from '@shared/compare/text-diff';
import { diffAgentDefinitions } from '@shared/compare/definition-diff';
import { sharedStepsLabel, type RunFigures } from '@shared/compare/fork-figures';
import type { AlignedRow, RunDiff, RunFacts, RunsComparison } from '@shared/compare/types';
import { formatUsd } from '@shared/pricing';

export interface ReportStyle {
  color: boolean;
  /** lines printed per field before "… N more lines" */
  maxLines: number;
}

const paint = (style: ReportStyle, code: string, text: string) =>
  style.color ? `\u001b[${code}m${text}\u001b[0m` : text;
const red = (s: ReportStyle, t: string) => paint(s, '31', t);
const green = (s: ReportStyle, t: string) => paint(s, '32', t);
const bold = (s: ReportStyle, t: string) => paint(s, '1', t);
const dim = (s: ReportStyle, t: string) => paint(s, '2', t);

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const count = (n: number) => n.toLocaleString('en');
const signed = (n: number, format: (v: number) => string = count) =>
  n === 0 ? '0' : `${n > 0 ? '+' : '−'}${format(Math.abs(n))}`;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('   ')
      .trimEnd(),
  );
}

/** A renamed run is named by its title, with its task on the next line. */
function runLines(name: string, f: RunFacts): string[] {
  const who = f.flow ? `${f.flow} flow` : f.agent;
  const line = `${name}  ${f.runId}  ${who} · ${f.model || 'unknown model'} · ${f.outcome}`;
  if (f.title === undefined) return [`${line} · ${oneLine(f.task, 70)}`];
  return [`${line} · ${oneLine(f.title, 70)}`, `   task: ${oneLine(f.task, 100)}`];
}

/**
 * Both runs' figures and B − A. A fork and its parent are measured after the fork step,
 * and the steps they share are a row of their own (fork-figures.ts).
 */
export function summaryLines(diff: RunDiff): string[] {
  const { fork } = diff;
  const a: RunFigures = fork ? fork.a : diff.a;
  const b: RunFigures = fork ? fork.b : diff.b;
  const tokens = (f: RunFigures) => f.tokens.prompt + f.tokens.completion;
  const cost =
    a.costUsd !== null && b.costUsd !== null
      ? signed(b.costUsd - a.costUsd, (v) => formatUsd(v))
      : '';
  const role = (side: 'a' | 'b') => (fork ? (fork.parent === side ? ' (parent)' : ' (fork)') : '');
  const shared = fork
    ? `${count(fork.shared.steps)} steps, ${count(tokens(fork.shared))} tokens, run by the parent`
    : '';
  return table([
    [fork ? `after step ${fork.step}` : '', `A${role('a')}`, `B${role('b')}`, 'B − A'],
    ['steps', count(a.steps), count(b.steps), signed(b.steps - a.steps)],
    ['tokens', count(tokens(a)), count(tokens(b)), signed(tokens(b) - tokens(a))],
    ['cost (est.)', formatUsd(a.costUsd), formatUsd(b.costUsd), cost],
    ['wall time', formatMs(a.wallMs), formatMs(b.wallMs), signed(b.wallMs - a.wallMs, formatMs)],
    ['tool errors', count(a.toolErrors), count(b.toolErrors), signed(b.toolErrors - a.toolErrors)],
    [
      'stuck',
      count(a.stuckDetections),
      count(b.stuckDetections),
      signed(b.stuckDetections - a.stuckDetections),
    ],
    ['outcome', diff.a.outcome, diff.b.outcome, diff.a.outcome === diff.b.outcome ? '' : 'differs'],
    ...(fork
      ? [
          [
            `${sharedStepsLabel(fork.step)} (shared)`,
            fork.parent === 'a' ? shared : 'inherited',
            fork.parent === 'b' ? shared : 'inherited',
            'not compared',
          ],
        ]
      : []),
  ]);
}

const show = (v: string | number | boolean | undefined) => (v === undefined ? '(none)' : String(v));

type ShownField = Pick<FieldDiff, 'label' | 'a' | 'b' | 'mode' | 'args'>;

function fieldLines(field: ShownField, style: ReportStyle): string[] {
  const out: string[] = [];
  const texts = field.args
    ? field.args
        .filter((arg) => arg.isChanged)
        .map((arg) => ({
          label: arg.key ? `${field.label} · ${arg.key}` : field.label,
          a: arg.a ?? '',
          b: arg.b ?? '',
          mode: arg.mode,
        }))
    : [{ label: field.label, a: field.a ?? '', b: field.b ?? '', mode: field.mode }];
  for (const text of texts) {
    out.push(`    ${bold(style, text.label)}:`);
    const parts = diffText(text.a, text.b, text.mode);
    let lines: string[];
    if (text.mode === 'words') {
      const inline = parts
        .map((p) =>
          p.kind === 'same'
            ? p.text
            : p.kind === 'removed'
              ? red(style, `[-${p.text}-]`)
              : green(style, `{+${p.text}+}`),
        )
        .join('');
      lines = inline.split('\n').map((l) => `      ${l}`);
    } else {
      lines = [];
      for (const part of parts) {
        const body = part.text.replace(/\n$/, '').split('\n');
        if (part.kind === 'same' && body.length <= 2) {
          for (const line of body) lines.push(`        ${line}`);
        } else if (part.kind === 'same') {
          lines.push(dim(style, `      … ${body.length} unchanged lines`));
        } else {
          const sign = part.kind === 'removed' ? '-' : '+';
          const color = part.kind === 'removed' ? red : green;
          for (const line of body) lines.push(color(style, `      ${sign} ${line}`));
        }
      }
    }
    if (lines.length > style.maxLines) {
      const more = lines.length - style.maxLines;
      lines = [...lines.slice(0, style.maxLines), `      … ${more} more lines (see --json)`];
    }
    out.push(...lines);
  }
  return out;
}

/** "Agent definition differs": each changed field, prompts and tool lists as line diffs. */
function definitionLines(diff: RunDiff, style: ReportStyle): string[] {
  const changed = diffAgentDefinitions(diff.a.agentDefinition, diff.b.agentDefinition);
  if (!changed) return [];
  const out = ['', bold(style, `Agent definition differs: ${changed.a} → ${changed.b}`)];
  for (const change of changed.changes) {
    out.push(...fieldLines({ label: change.key, a: change.a, b: change.b, mode: 'lines' }, style));
  }
  return out;
}

const MARK: Record<AlignedRow['status'], string> = {
  same: '=',
  changed: '~',
  'only-a': '-',
  'only-b': '+',
  shared: '^',
};

export function formatRunDiff(diff: RunDiff, style: ReportStyle): string {
  const out: string[] = [...runLines('A', diff.a), ...runLines('B', diff.b), ''];
  if (diff.fork) {
    const [fork, parent] = diff.fork.parent === 'a' ? ['B', 'A'] : ['A', 'B'];
    const n = diff.fork.step;
    out.push(
      `${fork} is a fork of ${parent} at step ${n}: the figures compare what each run did after step ${n}; ${sharedStepsLabel(n)} ${n === 1 ? 'is' : 'are'} shared (the parent ran ${n === 1 ? 'it' : 'them'}, the fork started from ${n === 1 ? 'it' : 'them'}).`,
      '',
    );
  }
  out.push(...summaryLines(diff));
  out.push(...definitionLines(diff, style));
  if (diff.settings.length > 0) {
    out.push('', 'Settings that differ:');
    out.push(...table(diff.settings.map((s) => [`  ${s.key}`, show(s.a), '→', show(s.b)])));
  } else if (diff.a.settings === null || diff.b.settings === null) {
    out.push('', 'Settings: not recorded for a run that predates settings on run.started.');
  }
  out.push('');
  if (diff.isEquivalent) {
    out.push(
      bold(style, `The runs are equivalent: ${diff.rows.length} aligned steps, no difference.`),
    );
    return `${out.join('\n')}\n`;
  }
  const first = diff.rows[diff.firstDifference!]!;
  out.push(
    bold(
      style,
      `The runs differ: ${diff.differences} of ${diff.rows.length} aligned rows; the first divergence is at ${rowLabel(diff, first)}.`,
    ),
  );
  diff.rows.forEach((row) => {
    if (row.status === 'same' || row.status === 'shared') return;
    const a = row.a !== null ? diff.stepsA[row.a] : undefined;
    const b = row.b !== null ? diff.stepsB[row.b] : undefined;
    const what = row.status === 'changed' ? `changed: ${row.fields?.join(', ')}` : 'no counterpart';
    out.push(
      '',
      `${MARK[row.status]} ${bold(style, rowLabel(diff, row))}  ${dim(style, `(${what})`)}`,
    );
    for (const field of stepFieldDiffs(a, b)) {
      if (field.isChanged) out.push(...fieldLines(field, style));
    }
  });
  return `${out.join('\n')}\n`;
}

/** `--json`: the facts and the differing rows with both sides' steps (not every step). */
export function diffJson(diff: RunDiff) {
  const first = diff.firstDifference === null ? null : diff.rows[diff.firstDifference]!;
  return {
    isEquivalent: diff.isEquivalent,
    differences: diff.differences,
    alignedRows: diff.rows.length,
    firstDifference: first
      ? {
          row: diff.firstDifference,
          label: rowLabel(diff, first),
          stepA: first.a !== null ? diff.stepsA[first.a]!.step : null,
          stepB: first.b !== null ? diff.stepsB[first.b]!.step : null,
        }
      : null,
    sharedPrefix: diff.sharedPrefix,
    ...(diff.fork ? { fork: diff.fork } : {}),
    a: diff.a,
    b: diff.b,
    settings: diff.settings,
    agentDefinition: diffAgentDefinitions(diff.a.agentDefinition, diff.b.agentDefinition),
    rows: diff.rows.flatMap((row, index) =>
      row.status === 'same' || row.status === 'shared'
        ? []
        : [
            {
              row: index,
              status: row.status,
              label: rowLabel(diff, row),
              fields: row.fields ?? [],
              a: row.a !== null ? diff.stepsA[row.a] : null,
              b: row.b !== null ? diff.stepsB[row.b] : null,
            },
          ],
    ),
  };
}

export function formatComparison(comparison: RunsComparison): string {
  const rows = [
    [
      '',
      'RUN',
      'MODEL',
      'STEPS',
      'TOKENS',
      'COST',
      'WALL',
      'ERRORS',
      'STUCK',
      'OUTCOME',
      'VS BASELINE',
    ],
  ];
  comparison.runs.forEach(({ facts: f, versusBaseline: v }, i) => {
    rows.push([
      String.fromCharCode(65 + i),
      f.runId,
      f.model,
      count(f.steps),
      count(f.tokens.prompt + f.tokens.completion),
      formatUsd(f.costUsd),
      formatMs(f.wallMs),
      count(f.toolErrors),
      count(f.stuckDetections),
      f.outcome,
      v === null
        ? '(baseline)'
        : v.isEquivalent
          ? 'equivalent'
          : `differs at ${v.firstDifference?.label ?? '?'} (${v.differences} rows)`,
    ]);
  });
  const out = table(rows);
  if (comparison.hasMixedTasks) out.push('', 'Note: these runs do not all have the same task.');
  out.push('', 'Each pair in detail: workbench runs diff A B');
  return `${out.join('\n')}\n`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
