import { describe, expect, it } from 'vitest';
import cases from './testdata/stats-cases.json';
import {
  bootstrapInterval,
  pairedTest,
  passAtK,
  passHatK,
  signTestP,
  verdictText,
  wilsonInterval,
} from './stats';

// Known values from scipy (scripts/stats-fixture.py wrote the JSON; no scipy needed here).
describe('experiment statistics against scipy', () => {
  it('Wilson 95 % interval', () => {
    expect(cases.wilson.length).toBeGreaterThan(10);
    for (const c of cases.wilson) {
      const interval = wilsonInterval(c.k, c.n);
      expect(interval?.low, `${c.k}/${c.n} low`).toBeCloseTo(c.low, 10);
      expect(interval?.high, `${c.k}/${c.n} high`).toBeCloseTo(c.high, 10);
    }
    expect(wilsonInterval(0, 0)).toBeUndefined();
  });

  it('exact sign test / McNemar p-values', () => {
    for (const c of cases.signTest) {
      const p = signTestP(c.plus, c.minus);
      // relative: the large cases' p-values are small
      expect(Math.abs(p - c.p), `${c.plus} vs ${c.minus}`).toBeLessThanOrEqual(
        1e-9 * Math.max(1e-3, c.p),
      );
    }
  });

  it('pass@k (unbiased estimator) and pass^k', () => {
    for (const c of cases.passAtK)
      expect(passAtK(c.n, c.c, c.k), `pass@${c.k} ${c.c}/${c.n}`).toBeCloseTo(c.value, 12);
    for (const c of cases.passHatK)
      expect(passHatK(c.n, c.c, c.k), `pass^${c.k} ${c.c}/${c.n}`).toBeCloseTo(c.value, 12);
    expect(() => passAtK(3, 1, 4)).toThrow(/1 <= k <= n/);
  });

  it('bootstrap interval: scipy percentile bootstrap within resampling noise, reproducible by seed', () => {
    for (const c of cases.bootstrap) {
      const interval = bootstrapInterval(c.values, 42, 20_000);
      // two independent resamplings of the same data: a few thousandths apart at most
      const spread = Math.max(...c.values) - Math.min(...c.values);
      expect(Math.abs((interval?.low ?? 0) - c.low)).toBeLessThan(0.02 * spread);
      expect(Math.abs((interval?.high ?? 0) - c.high)).toBeLessThan(0.02 * spread);
      expect(bootstrapInterval(c.values, 42, 20_000)).toEqual(interval);
    }
    const values = cases.bootstrap[0]?.values ?? [];
    expect(bootstrapInterval(values, 1)).not.toEqual(bootstrapInterval(values, 2));
    expect(bootstrapInterval([], 1)).toBeUndefined();
    // the order the runs were listed in does not matter (under concurrency it varies)
    const mixed = [0.5, 1, 0.5, 0.25, 1, 0.75, 0.5, 1, 0, 0.5, 1, 0.75];
    expect(bootstrapInterval([...mixed].reverse(), 7)).toEqual(bootstrapInterval(mixed, 7));
    expect(bootstrapInterval([...mixed].sort(), 7)).toEqual(bootstrapInterval(mixed, 7));
  });

  it('paired verdict: six of six items better is significant, five of six is noise', () => {
    const a = [0, 0, 0, 0, 0, 0];
    expect(pairedTest(a, [1, 1, 1, 1, 1, 1])).toMatchObject({
      better: 6,
      worse: 0,
      verdict: 'better',
    });
    expect(pairedTest([1, 1, 1, 1, 1, 1], a)).toMatchObject({ worse: 6, verdict: 'worse' });
    const five = pairedTest(a, [1, 1, 1, 1, 1, 0]);
    expect(five).toMatchObject({ better: 5, ties: 1, verdict: 'noise' });
    expect(verdictText(five)).toBe('not distinguishable from noise (p = 0.063)');
    // means over repeats that differ only by rounding are ties
    expect(pairedTest([1 / 3 + 1 / 3], [2 / 3])).toMatchObject({ ties: 1, p: 1 });
  });
});
