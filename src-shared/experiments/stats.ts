/**
 * The statistics of an experiment's report (issue 31), pure so the CLI, the hosts and the
 * UI show the same figures: a 95 % interval for a mean (Wilson for pass/fail scores, a
 * seeded percentile bootstrap for continuous ones), pass@k and pass^k over repeats, and
 * an exact two-sided sign test (McNemar's exact test when the scores are pass/fail) for
 * "is B different from A on the same items?". Checked against scipy
 * (testdata/stats-cases.json, written by scripts/stats-fixture.py).
 */
import { seededRandom, type Random } from './seeded-random';

export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95 % interval (scipy.stats.norm.ppf(0.975)) */
const Z95 = 1.959963984540054;

/** Wilson score interval of k passes out of n at 95 % (scipy binomtest(...).proportion_ci wilson). */
export function wilsonInterval(k: number, n: number): Interval | undefined {
  if (n <= 0) return undefined;
  const p = k / n;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (Z95 / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

export const BOOTSTRAP_RESAMPLES = 2000;

/**
 * Percentile bootstrap interval of the mean at 95 %: `resamples` resamples with
 * replacement drawn from a seeded generator, so the same scores and seed give the same
 * interval every time (scipy.stats.bootstrap method='percentile' agrees within the
 * resampling noise). The values are sorted first: the interval depends on the scores, not
 * on the order the runs happened to be listed in (under concurrency that order varies, and
 * a permutation resamples other indexes and rounds the sums differently).
 */
export function bootstrapInterval(
  values: readonly number[],
  seed: number,
  resamples = BOOTSTRAP_RESAMPLES,
): Interval | undefined {
  const n = values.length;
  if (n === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  const random: Random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += sorted[Math.floor(random() * n)] ?? 0;
    means[r] = sum / n;
  }
  means.sort();
  return { low: quantile(means, 0.025), high: quantile(means, 0.975) };
}

/** Linear-interpolated quantile of sorted values (numpy's default). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  const lower = sorted[below] ?? 0;
  return lower + ((sorted[above] ?? 0) - lower) * (position - below);
}

/**
 * pass@k, the unbiased estimator (Chen et al. 2021): the chance that at least one of k
 * attempts drawn from the n made passes, c of them having passed: 1 - C(n-c, k) / C(n, k).
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n || k < 1) throw new RangeError(`pass@${k} needs 1 <= k <= n (n = ${n})`);
  if (n - c < k) return 1;
  // the product form avoids the huge binomials: prod_{i=n-c+1}^{n} (1 - k/i)
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** pass^k (tau-bench): the chance that all k attempts drawn from the n pass: C(c, k) / C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n || k < 1) throw new RangeError(`pass^${k} needs 1 <= k <= n (n = ${n})`);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}

/**
 * Exact two-sided sign test: `plus` pairs went one way, `minus` the other (ties left out).
 * With pass/fail pairs this is McNemar's exact test on the discordant pairs. The p-value
 * is scipy's binomtest(plus, plus + minus, 0.5).pvalue; 1 when no pair differs.
 */
export function signTestP(plus: number, minus: number): number {
  const n = plus + minus;
  if (n === 0) return 1;
  const tail = Math.min(plus, minus);
  // log C(n, i) - n ln 2 summed in log space: 2^-n underflows past n = 1074
  const logHalf = n * Math.log(2);
  let logChoose = 0;
  let logSum = -Infinity;
  for (let i = 0; i <= tail; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    logSum = logAdd(logSum, logChoose - logHalf);
  }
  return Math.min(1, 2 * Math.exp(logSum));
}

function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  const high = Math.max(a, b);
  return high + Math.log(Math.exp(a - high) + Math.exp(b - high));
}

/** The significance level under which a difference is said to be more than noise. */
export const ALPHA = 0.05;

export type PairedVerdict = 'better' | 'worse' | 'noise';

export interface PairedTest {
  /** items where B scored higher than A (their means over repeats) */
  better: number;
  /** items where B scored lower */
  worse: number;
  /** items where they scored the same */
  ties: number;
  p: number;
  /** `noise`: not distinguishable from noise at ALPHA */
  verdict: PairedVerdict;
}

/**
 * Paired comparison of B against A over the same items: each item's score is its mean
 * over the repeats; the sign test asks whether B's wins and losses could be chance.
 */
export function pairedTest(a: readonly number[], b: readonly number[]): PairedTest {
  if (a.length !== b.length)
    throw new RangeError('a paired test needs the same items on both sides');
  let better = 0;
  let worse = 0;
  let ties = 0;
  for (let i = 0; i < a.length; i++) {
    const difference = (b[i] ?? 0) - (a[i] ?? 0);
    // means over repeats of the same count: a difference under 1e-9 is rounding, a tie
    if (difference > 1e-9) better += 1;
    else if (difference < -1e-9) worse += 1;
    else ties += 1;
  }
  const p = signTestP(better, worse);
  const verdict: PairedVerdict = p >= ALPHA ? 'noise' : better > worse ? 'better' : 'worse';
  return { better, worse, ties, p, verdict };
}

/** What a paired verdict says, in words a report shows. */
export function verdictText(test: PairedTest): string {
  const p = `p = ${formatP(test.p)}`;
  if (test.verdict === 'noise') return `not distinguishable from noise (${p})`;
  return `B is significantly ${test.verdict} than A (${p})`;
}

export function formatP(p: number): string {
  if (p < 0.001) return '< 0.001';
  return p.toFixed(3);
}

export function mean(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
