import { describe, expect, it } from 'vitest';
import { estimateCostUsd, listPriceOf } from '../pricing';
import { runFacts } from './run-facts';
import { history, plainStep } from './testing/history';

describe('runFacts', () => {
  it('sums what a run did: steps, tokens, cost, tool errors, stuck detections, wall time', () => {
    const events = history(
      'r1',
      [
        plainStep(1),
        { reply: 'again', calls: [{ name: 'bash', args: {}, error: 'exit 1' }], stuck: 'content' },
        { reply: 'done', tokens: { prompt: 1_000_000, completion: 0 } },
      ],
      { model: 'gpt-4o-mini', settings: { 'llm.model': 'gpt-4o-mini' } },
    );
    const facts = runFacts(events);
    expect(facts).toMatchObject({
      runId: 'r1',
      agent: 'manus',
      model: 'gpt-4o-mini',
      steps: 3,
      toolCalls: 2,
      toolErrors: 1,
      stuckDetections: 1,
      outcome: 'finished',
      settings: { 'llm.model': 'gpt-4o-mini' },
    });
    expect(facts.tokens).toEqual({ prompt: 100 + 200 + 1_000_000, completion: 40 });
    // 1,000,300 input tokens at $0.15 and 40 output tokens at $0.60 per million
    expect(facts.costUsd).toBeCloseTo((1_000_300 * 0.15 + 40 * 0.6) / 1e6, 9);
    expect(facts.wallMs).toBe(events.at(-1)!.ts - events[0]!.ts);
  });

  it('says running or interrupted for a history without run.finished, and null cost for unknown models', () => {
    const events = history('r2', [plainStep(1)], { isUnfinished: true, model: 'my-local-model' });
    expect(runFacts(events).outcome).toBe('interrupted');
    expect(runFacts(events, { isLive: true }).outcome).toBe('running');
    expect(runFacts(events).costUsd).toBeNull();
    expect(runFacts(events).settings).toBeNull();
  });

  it("prices a model by its profile's own recorded input_price/output_price (issue 25)", () => {
    const events = history(
      'r3',
      [{ reply: 'done', tokens: { prompt: 1_000_000, completion: 0 } }],
      {
        model: 'my-local-model',
        settings: {
          'llm.model': 'my-local-model',
          'llm.input_price': 2,
          'llm.output_price': 8,
        },
      },
    );
    expect(runFacts(events).costUsd).toBeCloseTo((1_000_000 * 2) / 1e6, 9);
  });
});

describe('list prices', () => {
  it('matches the longest listed model name followed by a separator', () => {
    expect(listPriceOf('gpt-4o-2024-08-06')).toEqual([2.5, 10]);
    expect(listPriceOf('openai/gpt-4o-mini')).toEqual([0.15, 0.6]);
    expect(listPriceOf('gpt-4-0613')).toEqual([30, 60]);
    expect(listPriceOf('gpt-4.5-preview')).toBeUndefined();
    expect(listPriceOf('gpt-4oo')).toBeUndefined();
    expect(estimateCostUsd('claude-sonnet-4-20250514', { prompt: 1e6, completion: 1e6 })).toBe(18);
  });
});

describe('settings that differ', () => {
  it('lists recorded settings that differ, or only the basics when a run recorded none', async () => {
    const { diffSettings } = await import('./diff-runs');
    const a = runFacts(history('a', [], { settings: { 'llm.model': 'm1', 'sandbox.image': 'i' } }));
    const b = runFacts(history('b', [], { settings: { 'llm.model': 'm2', 'llm.stream': false } }));
    expect(diffSettings(a, b)).toEqual([
      { key: 'llm.model', a: 'm1', b: 'm2' },
      { key: 'sandbox.image', a: 'i' },
      { key: 'llm.stream', b: false },
    ]);
    const old = runFacts(history('c', [], { model: 'gpt-old' }));
    expect(diffSettings(a, old)).toEqual([{ key: 'model', a: 'gpt-test', b: 'gpt-old' }]);
  });
});
