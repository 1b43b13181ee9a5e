import { describe, expect, it } from 'vitest';
import type { AnswerScorer } from './scorer-types';
import { judgeScore, scoreAnswer, scoreTrajectory } from './score-run';

const answer = (match: AnswerScorer['match'], extra: Partial<AnswerScorer> = {}): AnswerScorer => ({
  name: 'a',
  kind: 'answer',
  match,
  ...extra,
});

describe('answer scorer', () => {
  it('exact, contains, regex, numeric and JSON schema, each with why', () => {
    expect(scoreAnswer(answer('exact'), ' Paris ', 'paris')).toEqual({
      score: 1,
      explanation: 'the answer is the expected one',
    });
    expect(scoreAnswer(answer('exact', { ignoreCase: false }), 'Paris', 'paris').score).toBe(0);
    expect(scoreAnswer(answer('contains'), 'It is Paris.', 'paris').score).toBe(1);
    expect(scoreAnswer(answer('contains'), 'Lyon', 'paris')).toEqual({
      score: 0,
      explanation: 'the answer lacks "paris"',
    });
    expect(scoreAnswer(answer('regex'), 'answer: 42', '\\b42\\b').score).toBe(1);
    expect(scoreAnswer(answer('regex'), 'x', '(').explanation).toMatch(/not a regular expression/);
    expect(
      scoreAnswer(answer('numeric', { tolerance: 0.01 }), 'about 3.141', '3.14'),
    ).toMatchObject({ score: 1 });
    expect(scoreAnswer(answer('numeric'), 'total 1,250 items', '1250').score).toBe(1);
    expect(scoreAnswer(answer('numeric'), 'no idea', '3').explanation).toBe(
      'the answer has no number',
    );
    const schema = {
      type: 'object',
      required: ['city'],
      properties: { city: { type: 'string' }, n: { type: 'integer', minimum: 1 } },
    };
    expect(
      scoreAnswer(answer('json_schema', { schema }), '```json\n{"city": "Paris", "n": 2}\n```')
        .score,
    ).toBe(1);
    expect(scoreAnswer(answer('json_schema', { schema }), '{"n": 0, "city": "x"}')).toEqual({
      score: 0,
      explanation: '$.n is below 1',
    });
    expect(scoreAnswer(answer('json_schema', { schema }), '{"n": 2}').explanation).toBe(
      '$.city is missing',
    );
    expect(scoreAnswer(answer('exact'), undefined, 'x')).toEqual({
      score: 0,
      explanation: 'the run gave no answer',
    });
    expect(scoreAnswer(answer('exact'), 'x').explanation).toMatch(/no expected answer/);
    // the scorer's own expected wins over the item's
    expect(scoreAnswer(answer('exact', { expected: 'b' }), 'b', 'a').score).toBe(1);
  });
});

describe('trajectory scorer', () => {
  const facts = {
    steps: 4,
    tokens: 100,
    costUsd: null,
    durationMs: 5,
    toolErrors: 1,
    stuck: 0,
    duplicates: 2,
  };
  it('passes a figure at most max, says the figure', () => {
    expect(
      scoreTrajectory({ name: 't', kind: 'trajectory', metric: 'steps', max: 4 }, facts),
    ).toEqual({ score: 1, explanation: 'steps 4 <= 4' });
    expect(
      scoreTrajectory({ name: 't', kind: 'trajectory', metric: 'tool_errors', max: 0 }, facts),
    ).toEqual({ score: 0, explanation: 'tool errors 1 > 0' });
    expect(
      scoreTrajectory({ name: 't', kind: 'trajectory', metric: 'cost', max: 1 }, facts).explanation,
    ).toMatch(/cost is unknown/);
  });
});

describe('judge reply', () => {
  it('reads a JSON score, else a number in [0, 1]', () => {
    expect(judgeScore('{"score": 0.75, "explanation": "mostly right"}')).toEqual({
      score: 0.75,
      explanation: 'mostly right',
    });
    expect(judgeScore('Score: 1')?.score).toBe(1);
    expect(judgeScore('I give it 0.4 overall')?.score).toBe(0.4);
    expect(judgeScore('seven out of ten')).toBeUndefined();
  });
});
