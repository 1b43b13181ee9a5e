/**
 * Counting tokens without the o200k table (issue 16 item 7): the estimate stays near the
 * real tokenizer on the kinds of text agents send, learns the provider's own count from
 * its reported usage, and the guard counts exactly before it refuses a request.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from './llm-client';
import { LlmError } from './llm-error';
import { TokenBudget } from './token-budget';
import { countRequestTokens, countTextTokens } from './token-count';
import { estimateTextTokens, TokenCalibration } from './token-estimate';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const SAMPLES: Record<string, string> = {
  // a fixed length: the calibration test below needs a request of about 1,500 tokens, and
  // the page grows with every new setting
  prose: read('../../../docs/configuration.md').slice(0, 6000),
  code: read('./openai-llm.ts'),
  json: JSON.stringify(JSON.parse(read('../../../e2e/fixtures/scenarios.json'))),
  html: '<li><a href="/entry?n=1">Entry 1 of the index</a></li>'.repeat(100),
  chinese: '这是一个用于测试的中文句子，包含标点符号。'.repeat(40),
  base64: Buffer.from('some binary-ish payload 0123 '.repeat(100)).toString('base64'),
};

const request = (text: string): ChatRequest => ({ messages: [{ role: 'user', content: text }] });

describe('token estimate', () => {
  it('stays within 0.6x-1.5x of o200k on prose, code, JSON, HTML, Chinese and base64', () => {
    for (const [kind, text] of Object.entries(SAMPLES)) {
      const ratio = estimateTextTokens(text) / countTextTokens(text);
      expect(ratio, kind).toBeGreaterThan(0.6);
      expect(ratio, kind).toBeLessThan(1.5);
    }
    // building the o200k table alone takes 1.5 s, more on a loaded machine
  }, 30_000);

  it('learns the provider count from reported usage', () => {
    const calibration = new TokenCalibration();
    expect(calibration.apply(100)).toBe(100);
    calibration.observe(100, 180);
    expect(calibration.apply(100)).toBe(180);
    calibration.observe(100, 100_000); // nonsense is clamped
    expect(calibration.apply(100)).toBe(400);
  });
});

describe('token budget (max_input_tokens)', () => {
  it('passes a small request on its estimate, and takes the provider usage as it is', async () => {
    const budget = new TokenBudget(100_000, 'default');
    const small = request(SAMPLES['prose']!);
    expect(await budget.check(small)).toBe(budget.estimate(small));
    const usage = await budget.usage(
      small,
      { prompt_tokens: 1234, completion_tokens: 5 },
      'ok',
      [],
    );
    expect(usage).toEqual({ prompt: 1234, completion: 5 });
    // calibrated on that answer: the next estimate of the same request is the reported count
    expect(budget.estimate(small)).toBe(1234);
  });

  it('counts exactly near the limit, and refuses only on the exact count', async () => {
    const text = SAMPLES['prose']!;
    const exact = countRequestTokens(request(text));
    const within = new TokenBudget(exact, 'p');
    expect(await within.check(request(text))).toBe(exact);
    const over = new TokenBudget(exact - 1, 'p');
    const error = await over.check(request(text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('CONTEXT_LIMIT');
    expect((error as LlmError).message).toContain(`needs about ${exact} input tokens`);
  });

  it('counts usage itself when the provider reports none', async () => {
    const budget = new TokenBudget(100_000, 'default');
    const usage = await budget.usage(request('hi'), null, 'hello there', []);
    expect(usage).toEqual({
      prompt: countRequestTokens(request('hi')),
      completion: countTextTokens('hello there'),
    });
  });
});
