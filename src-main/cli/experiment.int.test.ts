/**
 * `workbench experiment` as a user runs it (issue 31, "Done when"): the built CLI, the
 * scripted model server (playing both agents' models and the judge), the real Docker
 * engine. 6 items x 2 variants x 3 repeats with a shell check, an answer scorer and an
 * LLM judge at --concurrency 3: every number of the report is recomputed here from the
 * runs' histories, by formulas written out in this file. A kill -9 mid-experiment and a
 * resume: no item finishes twice, the items done before keep their runs and scores.
 * `experiment diff` exits 1 on a constructed regression and 0 on equal noise.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { ExperimentReport } from '@shared/experiments/experiment-types';
import { bootstrapInterval } from '@shared/experiments/stats';
import { seedOf } from '@shared/experiments/seeded-random';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import type { RecordedRequest } from '../runtime/llm/testing/scripted-types';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docker = await probeDocker();

const text = (content: unknown): string =>
  typeof content === 'string' ? content : JSON.stringify(content ?? '');
const flips = new Map<string, number>();

/**
 * The models: m-a writes out.txt for items 1-4 and answers 42 for items 1-3; m-b writes
 * it for every item and answers 42 for items 1-5, and for item 6 every other time (a
 * flaky item). m-good answers 42, m-bad 7; m-n1 answers 42 on odd items, m-n2 on even
 * ones. The judge gives 0.9 to an answer of 42, else 0.2.
 */
function script(request: RecordedRequest) {
  const system = text(request.messages.find((m) => m.role === 'system')?.content);
  if (system.includes('workbench score judge')) {
    const user = text(request.messages.filter((m) => m.role === 'user').at(-1)?.content);
    const good = /Answer:\n[^\n]*\b42\b/.test(user);
    return {
      content: JSON.stringify({ score: good ? 0.9 : 0.2, explanation: good ? 'right' : 'wrong' }),
    };
  }
  const task = text(request.messages.find((m) => m.role === 'user')?.content);
  const item = Number(/item-(\d)/.exec(task)?.[1] ?? 0);
  const slow = task.includes('slow');
  const model = request.model;
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) {
    const writes = model === 'm-b' || (model === 'm-a' && item <= 4) || model === 'm-good';
    return {
      delayMs: slow ? 1_500 : 0,
      toolCalls: [
        { name: 'bash', arguments: { command: writes ? 'echo done > out.txt' : 'true' } },
      ],
    };
  }
  let answer = 41;
  if (model === 'm-a') answer = item <= 3 ? 42 : 41;
  if (model === 'm-b') {
    if (item <= 5) answer = 42;
    else {
      const n = (flips.get(task) ?? 0) + 1;
      flips.set(task, n);
      answer = n % 2 === 1 ? 42 : 41;
    }
  }
  if (model === 'm-good') answer = 42;
  if (model === 'm-bad') answer = 7;
  if (model === 'm-n1') answer = item % 2 === 1 ? 42 : 41;
  if (model === 'm-n2') answer = item % 2 === 0 ? 42 : 41;
  return {
    content: `The answer is ${answer}`,
    toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
  };
}

let server: ScriptedOpenAiServer;
let config = '';

beforeAll(async () => {
  server = new ScriptedOpenAiServer(script);
  const baseUrl = await server.start();
  config = [
    '[llm]',
    'model = "m-default"',
    `base_url = "${baseUrl}"`,
    'api_key = "sk-experiment-test-0123456789"',
    ...['a', 'b', 'judge', 'good', 'bad', 'n1', 'n2'].flatMap((p) => [
      `[llm.${p}]`,
      `model = "m-${p}"`,
    ]),
    '[sandbox]',
    `image = "${LOCAL_SANDBOX_IMAGE}"`,
    '',
  ].join('\n');
});

afterAll(async () => {
  await server?.close();
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-exp-home-'));
  writeFileSync(join(dir, 'config.toml'), config);
  return dir;
}

function workbench(dir: string, args: string[]) {
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: dir },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

function experimentFiles(options: {
  items: number;
  slow?: boolean;
  variants: [string, string][];
  repeats: number;
  judge?: boolean;
  check?: boolean;
}): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-exp-'));
  const lines = Array.from({ length: options.items }, (_, i) =>
    JSON.stringify({
      id: `q${i + 1}`,
      task: `item-${i + 1}${options.slow ? ' slow' : ''}: what is six times seven?`,
      expected: '42',
      check: 'test -s out.txt',
    }),
  );
  writeFileSync(join(dir, 'items.jsonl'), `${lines.join('\n')}\n`);
  const toml = [
    'name = "six sevens"',
    'dataset = "items.jsonl"',
    `repeats = ${options.repeats}`,
    ...options.variants.flatMap(([name, profile]) => [
      '[[variants]]',
      `name = "${name}"`,
      'agent = "swe"',
      `profile = "${profile}"`,
    ]),
    ...(options.check !== false ? ['[[scorers]]', 'name = "check"', 'kind = "shell"'] : []),
    '[[scorers]]',
    'name = "answer"',
    'kind = "answer"',
    'match = "numeric"',
    ...(options.judge
      ? [
          '[[scorers]]',
          'name = "judge"',
          'kind = "judge"',
          'profile = "judge"',
          'rubric = "1 when the answer is 42"',
        ]
      : []),
  ];
  writeFileSync(join(dir, 'experiment.toml'), `${toml.join('\n')}\n`);
  return join(dir, 'experiment.toml');
}

/** Every run of the history, by id, read straight from the JSONL files. */
function histories(dir: string): Map<string, RunEvent[]> {
  const runs = new Map<string, RunEvent[]>();
  for (const name of readdirSync(join(dir, 'runs'))) {
    if (!name.endsWith('.jsonl')) continue;
    const events = readFileSync(join(dir, 'runs', name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RunEvent);
    runs.set(name.slice(0, -'.jsonl'.length), events);
  }
  return runs;
}

// ---- the recomputation, written out independently of src-shared/experiments
const choose = (n: number, k: number): number => {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
};
const avg = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
function wilson(k: number, n: number) {
  const z = 1.959963984540054;
  const p = k / n;
  const c = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const h = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { low: Math.max(0, c - h), high: Math.min(1, c + h) };
}
function signP(plus: number, minus: number): number {
  const n = plus + minus;
  if (n === 0) return 1;
  let tail = 0;
  for (let i = 0; i <= Math.min(plus, minus); i++) tail += choose(n, i) / 2 ** n;
  return Math.min(1, 2 * tail);
}
function median(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2;
}

interface HandRun {
  runId: string;
  item: number;
  variant: number;
  repeat: number;
  scores: Record<string, number>;
  steps: number;
  tokens: number;
  durationMs: number;
  finished: boolean;
  events: RunEvent[];
}

function handRuns(dir: string, batchId: string): HandRun[] {
  const out: HandRun[] = [];
  for (const [runId, events] of histories(dir)) {
    const started = events[0];
    if (started?.type !== 'run.started' || started.batch?.batchId !== batchId) continue;
    const finished = events.find((e) => e.type === 'run.finished');
    const [, t, p, r] = /^t(\d+)-p(\d+)-r(\d+)$/.exec(started.batch.item) ?? [];
    const scores: Record<string, number> = {};
    for (const e of events) if (e.type === 'score.recorded') scores[e.scorer] = e.score;
    let steps = 0;
    for (const e of events) if (e.type === 'step.started') steps = Math.max(steps, e.step);
    let tokens = 0;
    for (const e of events)
      if (e.type === 'llm.responded' && e.agent === started.agent)
        tokens += e.usage.prompt + e.usage.completion;
    out.push({
      runId,
      item: Number(t),
      variant: Number(p),
      repeat: Number(r),
      scores,
      steps,
      tokens,
      durationMs: (finished?.ts ?? 0) - started.ts,
      finished: finished?.type === 'run.finished' && finished.outcome !== 'cancelled',
      events,
    });
  }
  return out;
}

/** Checks every number of the report against the runs' histories. */
function recompute(report: ExperimentReport, runs: HandRun[], scorers: string[], repeats: number) {
  const done = runs.filter((r) => r.finished);
  expect(report.done).toBe(done.length);
  for (const [v, variant] of report.variants.entries()) {
    // in the report's order (the grid's: item, then repeat): the bootstrap resamples by
    // index, so another order of the same values gives other sums (readdir's order is
    // the file system's, and the runs' ids carry random parts)
    const own = done
      .filter((r) => r.variant === v)
      .sort((a, b) => a.item - b.item || a.repeat - b.repeat);
    expect(variant.runs).toBe(own.length);
    for (const name of scorers) {
      const s = variant.scorers.find((x) => x.scorer === name)!;
      const values = own.map((r) => r.scores[name] ?? 0);
      const passed = values.filter((x) => x >= 0.5).length;
      expect(s.n).toBe(values.length);
      expect(s.passes).toBe(passed);
      expect(s.mean).toBeCloseTo(avg(values), 12);
      if (values.every((x) => x === 0 || x === 1)) {
        expect(s.method).toBe('wilson');
        expect(s.interval!.low).toBeCloseTo(wilson(passed, values.length).low, 12);
        expect(s.interval!.high).toBeCloseTo(wilson(passed, values.length).high, 12);
      } else {
        // the bootstrap is seeded by the experiment, variant and scorer (scipy-checked in stats.test.ts)
        expect(s.method).toBe('bootstrap');
        expect(s.interval).toEqual(
          bootstrapInterval(
            values,
            seedOf(`${report.experimentId}/${variant.variant.name}/${name}`),
          ),
        );
      }
      for (let k = 1; k <= repeats; k++) {
        const perItem = report.dataset.items.map((_, i) => {
          const cell = own.filter((r) => r.item === i);
          const c = cell.filter((r) => (r.scores[name] ?? 0) >= 0.5).length;
          return {
            atK: 1 - choose(repeats - c, k) / choose(repeats, k),
            hatK: choose(c, k) / choose(repeats, k),
          };
        });
        expect(s.passAtK[k - 1]!.value).toBeCloseTo(avg(perItem.map((x) => x.atK)), 12);
        expect(s.passHatK[k - 1]!.value).toBeCloseTo(avg(perItem.map((x) => x.hatK)), 12);
      }
    }
    const steps = own.map((r) => r.steps);
    expect(variant.steps).toMatchObject({
      mean: avg(steps),
      min: Math.min(...steps),
      max: Math.max(...steps),
      p50: median(steps),
    });
    const tokens = own.map((r) => r.tokens);
    expect(variant.tokens).toMatchObject({ mean: avg(tokens), p50: median(tokens) });
    const ms = own.map((r) => r.durationMs);
    expect(variant.durationMs).toMatchObject({
      mean: avg(ms),
      min: Math.min(...ms),
      max: Math.max(...ms),
    });
  }
  // B against A, per scorer: each item's mean over its repeats
  for (const name of scorers) {
    const c = report.comparisons.find((x) => x.scorer === name && x.b === 1)!;
    const itemMean = (i: number, v: number) =>
      avg(done.filter((r) => r.item === i && r.variant === v).map((r) => r.scores[name] ?? 0));
    const items = report.dataset.items.map((_, i) => ({ a: itemMean(i, 0), b: itemMean(i, 1) }));
    const better = items.filter((x) => x.b > x.a + 1e-9).length;
    const worse = items.filter((x) => x.b < x.a - 1e-9).length;
    expect(c.test).toMatchObject({ better, worse, ties: items.length - better - worse });
    expect(c.test.p).toBeCloseTo(signP(better, worse), 12);
    expect(c.flipped.map((f) => f.itemIndex)).toEqual(
      items.flatMap((x, i) => (x.a >= 0.5 !== x.b >= 0.5 ? [i] : [])),
    );
    for (const f of c.flipped) {
      expect(done.find((r) => r.runId === f.aRunId)).toMatchObject({
        item: f.itemIndex,
        variant: 0,
        repeat: 0,
      });
      expect(done.find((r) => r.runId === f.bRunId)).toMatchObject({
        item: f.itemIndex,
        variant: 1,
        repeat: 0,
      });
    }
  }
  const flaky: string[] = [];
  for (const [i] of report.dataset.items.entries())
    for (const [v] of report.variants.entries())
      for (const name of scorers) {
        const cell = done.filter((r) => r.item === i && r.variant === v);
        const c = cell.filter((r) => (r.scores[name] ?? 0) >= 0.5).length;
        if (c > 0 && c < cell.length) flaky.push(`${i}/${v}/${name}`);
      }
  expect(report.flaky.map((f) => `${f.itemIndex}/${f.variantIndex}/${f.scorer}`).sort()).toEqual(
    flaky.sort(),
  );
}

describe.skipIf(!docker.available)('workbench experiment', () => {
  it('6 items x 2 variants x 3 repeats, shell check + answer + judge at --concurrency 3: the report recomputed from the histories', async () => {
    const dir = home();
    const file = experimentFiles({
      items: 6,
      variants: [
        ['A', 'a'],
        ['B', 'b'],
      ],
      repeats: 3,
      judge: true,
    });
    const ran = await workbench(dir, ['experiment', 'run', file, '--concurrency', '3', '--json'])
      .done;
    expect(ran.code, ran.stderr).toBe(0);
    const report = JSON.parse(ran.stdout) as ExperimentReport;
    expect(report).toMatchObject({
      done: 36,
      total: 36,
      repeats: 3,
      scorers: ['check', 'answer', 'judge'],
    });
    expect(report.dataset.version).toMatch(/^sha256:/);
    const batchId = /\(batch (\S+)\)/.exec(ran.stderr)?.[1] ?? '';
    const runs = handRuns(dir, batchId);
    expect(runs).toHaveLength(36);
    // the scorers judged what the histories show: the check passes when the agent wrote
    // out.txt, the answer when it said 42, the judge kept its request and reply
    for (const run of runs) {
      const wrote = run.events.some(
        (e) => e.type === 'tool.started' && JSON.stringify(e).includes('echo done'),
      );
      const said42 = run.events.some(
        (e) => e.type === 'llm.responded' && e.content === 'The answer is 42',
      );
      expect(run.scores, run.runId).toEqual({
        check: wrote ? 1 : 0,
        answer: said42 ? 1 : 0,
        judge: said42 ? 0.9 : 0.2,
      });
      const judge = run.events.find((e) => e.type === 'score.recorded' && e.kind === 'judge');
      expect(judge?.type === 'score.recorded' && judge.judge).toMatchObject({
        profile: 'judge',
        model: 'm-judge',
        reply: expect.stringContaining('"score"'),
      });
    }
    recompute(report, runs, ['check', 'answer', 'judge'], 3);
    // A passes the check on items 1-4, B on all: items 5 and 6 flip; 2 of 6 is noise
    const check = report.comparisons.find((c) => c.scorer === 'check')!;
    expect(check.flipped.map((f) => f.itemId)).toEqual(['q5', 'q6']);
    expect(check.text).toBe('not distinguishable from noise (p = 0.500)');
    // item 6 of B answers 42 every other time: flaky
    expect(
      report.flaky.some((f) => f.itemId === 'q6' && f.variantIndex === 1 && f.scorer === 'answer'),
    ).toBe(true);
    // show prints the same report
    const id = report.experimentId;
    const shown = await workbench(dir, ['experiment', 'show', id, '--json']).done;
    expect(JSON.parse(shown.stdout)).toEqual(report);
    const textReport = await workbench(dir, ['experiment', 'show', id]).done;
    expect(textReport.stdout).toContain(
      'B vs A on check (6 items): 2 better, 0 worse, 4 same; not distinguishable from noise (p = 0.500)',
    );
  }, 600_000);

  it('diff exits 1 on a constructed regression, 0 on equal variants with different noise', async () => {
    const dir = home();
    const file = experimentFiles({
      items: 6,
      variants: [
        ['good', 'good'],
        ['bad', 'bad'],
        ['n1', 'n1'],
        ['n2', 'n2'],
      ],
      repeats: 1,
      check: false,
    });
    const ran = await workbench(dir, ['experiment', 'run', file, '--concurrency', '3', '--json'])
      .done;
    expect(ran.code, ran.stderr).toBe(0);
    const id = (JSON.parse(ran.stdout) as ExperimentReport).experimentId;
    const regression = await workbench(dir, [
      'experiment',
      'diff',
      id,
      id,
      '--variant-a',
      'good',
      '--variant-b',
      'bad',
      '--scorer',
      'answer',
    ]).done;
    expect(regression.code, regression.stderr).toBe(1);
    expect(regression.stdout).toContain('B is significantly worse than A (p = 0.031)');
    const noise = await workbench(dir, [
      'experiment',
      'diff',
      id,
      id,
      '--variant-a',
      'n1',
      '--variant-b',
      'n2',
    ]).done;
    expect(noise.code, noise.stderr).toBe(0);
    expect(noise.stdout).toContain('3 better, 3 worse; not distinguishable from noise (p = 1.000)');
  }, 600_000);

  it('kill -9 mid-experiment, resume: no item finishes twice, the runs done before keep their scores', async () => {
    const dir = home();
    const file = experimentFiles({
      items: 3,
      slow: true,
      variants: [
        ['A', 'a'],
        ['B', 'b'],
      ],
      repeats: 1,
    });
    const first = workbench(dir, ['experiment', 'run', file, '--concurrency', '2']);
    const started = Date.now();
    while (!/: 2\/6 done, 2 running/.test(first.stderr())) {
      if (Date.now() - started > 120_000) throw new Error(`never got to 2/6: ${first.stderr()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    first.child.kill('SIGKILL');
    await first.done;
    const id = /^experiment (\S+)/m.exec(first.stderr())?.[1] ?? '';
    const batchId = /\(batch (\S+)\)/.exec(first.stderr())?.[1] ?? '';
    const before = handRuns(dir, batchId).filter((r) => r.finished);
    expect(before.length).toBeGreaterThanOrEqual(2);
    const resumed = await workbench(dir, ['experiment', 'resume', id, '--json']).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout) as ExperimentReport;
    expect(report).toMatchObject({ done: 6, total: 6 });
    const runs = handRuns(dir, batchId);
    for (const t of [0, 1, 2])
      for (const p of [0, 1])
        expect(
          runs.filter((r) => r.item === t && r.variant === p && r.finished),
          `t${t} p${p}`,
        ).toHaveLength(1);
    for (const run of before) {
      const cell = report.cells[run.item]![run.variant]!;
      expect(cell.runs).toEqual([
        expect.objectContaining({ runId: run.runId, scores: run.scores }),
      ]);
    }
    recompute(report, runs, ['check', 'answer'], 1);
    const shown = await workbench(dir, ['experiment', 'show', id, '--json']).done;
    expect(JSON.parse(shown.stdout)).toEqual(report);
  }, 600_000);

  it('variants of two versions of a user agent run each version; an unknown agent refuses the experiment', async () => {
    const dir = home();
    const agentFile = join(dir, 'agents', 'solver.toml');
    mkdirSync(join(dir, 'agents'));
    const definition = (prompt: string) =>
      [
        'name = "solver"',
        `system_prompt = "${prompt} Work in {{work_dir}}."`,
        'tools = ["bash", "terminate"]',
        '',
      ].join('\n');
    writeFileSync(agentFile, definition('You are solver one.'));
    expect((await workbench(dir, ['agents', 'list']).done).code).toBe(0);
    writeFileSync(agentFile, definition('You are solver two.'));
    expect((await workbench(dir, ['agents', 'list']).done).code).toBe(0);
    const file = experimentFiles({
      items: 2,
      variants: [
        ['v1', 'good'],
        ['v2', 'good'],
      ],
      repeats: 1,
      check: false,
    });
    const versioned = readFileSync(file, 'utf8')
      .replace(/name = "v1"\nagent = "swe"/, 'name = "v1"\nagent = "solver@1"')
      .replace(/name = "v2"\nagent = "swe"/, 'name = "v2"\nagent = "solver@2"');
    writeFileSync(file, versioned);
    const ran = await workbench(dir, ['experiment', 'run', file, '--json']).done;
    expect(ran.code, ran.stderr).toBe(0);
    expect((JSON.parse(ran.stdout) as ExperimentReport).done).toBe(4);
    // each run records the version it ran, and sent that version's prompt
    const prompts = new Map<number, string[]>();
    for (const [, events] of histories(dir)) {
      const started = events[0] as Extract<RunEvent, { type: 'run.started' }>;
      const request = events.find((e) => e.type === 'llm.requested');
      expect(started.agentDefinition?.definition.name).toBe('solver');
      const version = started.agentDefinition!.version!;
      const system = request?.type === 'llm.requested' ? (request.system ?? '') : '';
      prompts.set(version, [...(prompts.get(version) ?? []), system]);
    }
    expect([...prompts.keys()].sort()).toEqual([1, 2]);
    expect(prompts.get(1)!.map((p) => p.includes('You are solver one.'))).toEqual([true, true]);
    expect(prompts.get(2)!.map((p) => p.includes('You are solver two.'))).toEqual([true, true]);
    const unknown = readFileSync(file, 'utf8').replace('agent = "solver@2"', 'agent = "nobody@1"');
    writeFileSync(file, unknown);
    const refused = await workbench(dir, ['experiment', 'run', file]).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('variant "v2" runs the agent "nobody@1"');
  }, 600_000);
});
