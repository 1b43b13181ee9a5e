/**
 * The scorers that read the run's history alone (pure): the final answer against the
 * expected one, and the trajectory's figures against a maximum. The sandbox scorers
 * (shell, file) and the judge run in the runtime (runtime/launch/run-scorers.ts).
 */
import type { AnswerScorer, ScoreResult, TrajectoryScorer } from './scorer-types';
import { schemaProblem } from './json-schema-lite';
import type { TrajectoryFacts } from './run-facts';

export function scoreAnswer(
  spec: AnswerScorer,
  answer: string | undefined,
  itemExpected?: string,
): ScoreResult {
  if (answer === undefined) return { score: 0, explanation: 'the run gave no answer' };
  const expected = spec.expected ?? itemExpected;
  const fold = (s: string) => (spec.ignoreCase === false ? s : s.toLowerCase());
  const result = (ok: boolean, why: string): ScoreResult => ({
    score: ok ? 1 : 0,
    explanation: why,
  });
  if (spec.match === 'json_schema') {
    if (!spec.schema) return result(false, 'the scorer has no schema');
    let value: unknown;
    try {
      value = JSON.parse(jsonPart(answer));
    } catch {
      return result(false, 'the answer is not JSON');
    }
    const problem = schemaProblem(value, spec.schema);
    return result(problem === undefined, problem ?? 'the answer fits the schema');
  }
  if (expected === undefined)
    return result(false, 'no expected answer (the item has no "expected", the scorer none)');
  switch (spec.match) {
    case 'exact': {
      const ok = fold(answer.trim()) === fold(expected.trim());
      return result(
        ok,
        ok
          ? 'the answer is the expected one'
          : `expected "${short(expected)}", got "${short(answer)}"`,
      );
    }
    case 'contains': {
      const ok = fold(answer).includes(fold(expected));
      return result(
        ok,
        ok ? `the answer contains "${short(expected)}"` : `the answer lacks "${short(expected)}"`,
      );
    }
    case 'regex': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(expected, spec.ignoreCase === false ? 'u' : 'iu');
      } catch (error) {
        return result(
          false,
          `the expected pattern is not a regular expression: ${(error as Error).message}`,
        );
      }
      const ok = pattern.test(answer);
      return result(
        ok,
        ok ? `the answer matches /${expected}/` : `the answer does not match /${expected}/`,
      );
    }
    case 'numeric': {
      const want = Number(expected);
      const got = lastNumber(answer);
      if (!Number.isFinite(want))
        return result(false, `the expected answer "${short(expected)}" is not a number`);
      if (got === undefined) return result(false, 'the answer has no number');
      const tolerance = spec.tolerance ?? 0;
      const ok = Math.abs(got - want) <= tolerance;
      return result(ok, `${got} against ${want} (tolerance ${tolerance})`);
    }
  }
}

export function scoreTrajectory(spec: TrajectoryScorer, facts: TrajectoryFacts): ScoreResult {
  const value = metricValue(spec, facts);
  if (value === null)
    return { score: 0, explanation: 'the cost is unknown (a model without a price)' };
  const ok = value <= spec.max;
  return {
    score: ok ? 1 : 0,
    explanation: `${spec.metric.replace('_', ' ')} ${value} ${ok ? '<=' : '>'} ${spec.max}`,
  };
}

function metricValue(spec: TrajectoryScorer, facts: TrajectoryFacts): number | null {
  switch (spec.metric) {
    case 'steps':
      return facts.steps;
    case 'cost':
      return facts.costUsd;
    case 'tool_errors':
      return facts.toolErrors;
    case 'stuck':
      return facts.stuck;
    case 'duplicates':
      return facts.duplicates;
  }
}

/** A fenced ```json block's content, else the text itself. */
function jsonPart(text: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  return (fenced?.[1] ?? text).trim();
}

function lastNumber(text: string): number | undefined {
  const all = text.replace(/(\d),(\d{3})/g, '$1$2').match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/gi);
  const last = all?.[all.length - 1];
  return last === undefined ? undefined : Number(last);
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * The judge's reply read as a score: a JSON object `{"score": 0.8, "explanation": ...}`
 * (fenced or not), else the first number in [0, 1] of the text.
 */
export function judgeScore(reply: string): ScoreResult | undefined {
  try {
    const value = JSON.parse(jsonPart(reply)) as { score?: unknown; explanation?: unknown };
    if (typeof value.score === 'number' && value.score >= 0 && value.score <= 1)
      return {
        score: value.score,
        explanation: typeof value.explanation === 'string' ? value.explanation : short(reply),
      };
  } catch {
    // not JSON: a number in the text
  }
  const number = /(?:^|[^\d.])(0(?:\.\d+)?|1(?:\.0+)?)(?![\d.])/.exec(reply);
  return number?.[1] !== undefined
    ? { score: Number(number[1]), explanation: short(reply) }
    : undefined;
}
