/**
 * `workbench batch` as a user runs it (issue 18, "Done when"): the built CLI in a real
 * process, the scripted model server, the real Docker engine. A batch of 3 tasks x 2
 * profiles x 2 repeats with checks never has more than `--concurrency 3` containers
 * (sampled from the engine by the CLI's owner label while it runs), and its grid equals
 * what the runs' histories on disk say. A batch killed with SIGKILL mid-way, then
 * `--resume`d, runs only the items that had not finished.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchGrid, BatchState } from '@shared/domain/batch';
import type { RunEvent } from '@shared/events';
import { scenarioScript, parseScenarioFile } from '../runtime/llm/testing/scenario-script';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';
import { containersWith } from '../runtime/sandbox/testing/sandbox-fixture';
import { LABELS } from '../runtime/sandbox/container-policy';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docker = await probeDocker();

const bash = (command: string) => ({ name: 'bash', arguments: { command } });
const terminate = { name: 'terminate', arguments: { status: 'success' } };
const scenarios = parseScenarioFile(
  JSON.stringify({
    scenarios: [
      // writes the model's name: its check passes for the "fast" profile only
      {
        name: 'alpha',
        match: 'alpha',
        turns: [
          { delayMs: 300, toolCalls: [bash('echo {{model}} > out.txt')] },
          { toolCalls: [terminate] },
        ],
      },
      {
        name: 'beta',
        match: 'beta',
        turns: [
          { delayMs: 300, toolCalls: [bash('echo beta > out.txt')] },
          { toolCalls: [terminate] },
        ],
      },
      // writes nothing: the batch's default check (test -f out.txt) fails
      { name: 'gamma', match: 'gamma', turns: [{ delayMs: 300, toolCalls: [terminate] }] },
      // a failed tool call along the way: "finished with 1 tool error", not "finished"
      {
        name: 'failing',
        match: 'failing',
        turns: [{ toolCalls: [bash('ls /no/such/folder')] }, { toolCalls: [terminate] }],
      },
      // slow enough to be killed mid-run
      {
        name: 'slow',
        match: 'slow',
        turns: [
          { delayMs: 1_500, toolCalls: [bash('echo slow > out.txt')] },
          { toolCalls: [terminate] },
        ],
      },
    ],
  }),
);

let server: ScriptedOpenAiServer;
let dir: string;

beforeAll(async () => {
  server = new ScriptedOpenAiServer(scenarioScript(scenarios));
  const baseUrl = await server.start();
  dir = mkdtempSync(join(tmpdir(), 'wb-batch-'));
  writeFileSync(
    join(dir, 'config.toml'),
    [
      '[llm]',
      'model = "m-default"',
      `base_url = "${baseUrl}"`,
      'api_key = "sk-batch-test-0123456789"',
      '[llm.fast]',
      'model = "m-fast"',
      '[llm.slow]',
      'model = "m-slow"',
      '[sandbox]',
      `image = "${LOCAL_SANDBOX_IMAGE}"`,
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server?.close();
});

interface Cli {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stderr: () => string;
}

function workbench(home: string, args: string[]): Cli {
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: home },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'wb-batch-home-'));
  writeFileSync(join(home, 'config.toml'), readFileSync(join(dir, 'config.toml')));
  return home;
}

function taskFile(lines: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wb-batch-tasks-')), 'tasks.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

/** Every run of the history, by id, read straight from the JSONL files. */
function histories(home: string): Map<string, RunEvent[]> {
  const runs = new Map<string, RunEvent[]>();
  for (const name of readdirSync(join(home, 'runs'))) {
    if (!name.endsWith('.jsonl')) continue;
    const events = readFileSync(join(home, 'runs', name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RunEvent);
    runs.set(name.slice(0, -'.jsonl'.length), events);
  }
  return runs;
}

/** The figures a grid cell's run should show, folded by hand from its history. */
function figuresOf(events: RunEvent[]) {
  const started = events.find((e) => e.type === 'run.started');
  const finished = events.find((e) => e.type === 'run.finished');
  const check = events.find((e) => e.type === 'check.finished');
  if (started?.type !== 'run.started' || finished?.type !== 'run.finished')
    throw new Error('a run without start or finish');
  return {
    key: started.batch?.item,
    outcome: finished.outcome,
    check: check?.type === 'check.finished' ? check.ok : undefined,
    steps: finished.steps,
    tokens: finished.usage.prompt + finished.usage.completion,
    durationMs: finished.ts - started.ts,
    stuck: events.filter((e) => e.type === 'stuck.detected').length,
  };
}

async function until(probe: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!docker.available)('workbench batch', () => {
  it('runs 3 tasks x 2 profiles x 2 repeats with checks, at most 3 at once, containers within max_containers, the grid from the histories', async () => {
    const home = newHome();
    const tasks = taskFile([
      { task: 'alpha: write the model name', check: 'grep -q m-fast out.txt' },
      { task: 'beta: write beta' },
      { task: 'gamma: write nothing' },
    ]);
    const cli = workbench(home, [
      'batch',
      tasks,
      '--agent',
      'swe',
      '--profile',
      'fast',
      '--profile',
      'slow',
      '--repeat',
      '2',
      '--concurrency',
      '3',
      '--check',
      'test -f out.txt',
      '--json',
    ]);
    let most = 0;
    let samples = 0;
    let isSampling = true;
    const sampler = (async () => {
      while (isSampling && cli.child.pid !== undefined) {
        const live = await containersWith({ [LABELS.pid]: String(cli.child.pid) });
        most = Math.max(most, live.length);
        samples += 1;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const ran = await cli.done;
    isSampling = false;
    await sampler;
    // checks fail for some cells, so the batch exits 1 (every run finished, not every check passed)
    expect(ran.code, ran.stderr).toBe(1);
    expect(samples).toBeGreaterThan(5);
    expect(most).toBeGreaterThan(1);
    // the runs' containers and the warm pool's spares (docs/batch.md): within the default
    // [sandbox] max_containers = 5, not the concurrency
    expect(most).toBeLessThanOrEqual(5);

    const grid = JSON.parse(ran.stdout) as BatchGrid;
    expect(grid.profiles).toEqual(['fast', 'slow']);
    expect(grid.progress).toMatchObject({
      total: 12,
      done: 12,
      running: 0,
      queued: 0,
      isComplete: true,
    });
    const runs = histories(home);
    const tagged = [...runs.values()].filter((events) =>
      events.some((e) => e.type === 'run.started' && e.batch?.batchId === grid.batchId),
    );
    expect(tagged).toHaveLength(12);
    // at most 3 runs at once (--concurrency 3), from their histories
    const edges = tagged.flatMap((events) => {
      const start = events.find((e) => e.type === 'run.started')?.ts ?? 0;
      const end = events.find((e) => e.type === 'run.finished')?.ts ?? 0;
      return [
        { ts: start, delta: 1 },
        { ts: end, delta: -1 },
      ];
    });
    let atOnce = 0;
    let mostAtOnce = 0;
    for (const edge of edges.sort((a, b) => a.ts - b.ts || a.delta - b.delta)) {
      atOnce += edge.delta;
      mostAtOnce = Math.max(mostAtOnce, atOnce);
    }
    expect(mostAtOnce).toBeLessThanOrEqual(3);
    // Each cell's figures are those its runs' histories give.
    for (const [taskIndex, row] of grid.cells.entries()) {
      for (const [profileIndex, cell] of row.entries()) {
        expect(cell.runs).toHaveLength(2);
        let steps = 0;
        let tokens = 0;
        for (const run of cell.runs) {
          const events = runs.get(run.runId ?? '');
          expect(events, run.key).toBeDefined();
          const figures = figuresOf(events ?? []);
          expect(figures.key).toBe(run.key);
          expect(run).toMatchObject({
            outcome: figures.outcome,
            check: figures.check,
            steps: figures.steps,
            tokens: figures.tokens,
            durationMs: figures.durationMs,
            stuck: figures.stuck,
          });
          const started = events?.[0];
          expect(started?.type === 'run.started' && started.model).toBe(
            profileIndex === 0 ? 'm-fast' : 'm-slow',
          );
          steps += figures.steps;
          tokens += figures.tokens;
        }
        expect(cell).toMatchObject({ steps, tokens, finished: 2, checksRun: 2 });
        // alpha passes its own check with m-fast only; beta passes; gamma wrote nothing
        const passes = taskIndex === 0 ? (profileIndex === 0 ? 2 : 0) : taskIndex === 1 ? 2 : 0;
        expect(cell.checksPassed, `task ${taskIndex} profile ${profileIndex}`).toBe(passes);
      }
    }
    // Nothing is left on the engine.
    expect(await containersWith({ [LABELS.pid]: String(cli.child.pid) })).toEqual([]);
  }, 120_000);

  it("prints each cell's verdicts as the history labels them, and one run's figures as a mean (issue 25 item 6)", async () => {
    const home = newHome();
    const tasks = taskFile([{ task: 'failing: list a missing folder' }]);
    const ran = await workbench(home, [
      'batch',
      tasks,
      '--agent',
      'swe',
      '--repeat',
      '2',
      '--concurrency',
      '2',
    ]).done;
    // finished with tool errors is a finish (exit 0), as `workbench run` says
    expect(ran.code, ran.stderr).toBe(0);
    const batchId = /^batch (\S+)$/m.exec(ran.stderr)?.[1] ?? '';
    const runs = [...histories(home).values()].filter((events) =>
      events.some((e) => e.type === 'run.started' && e.batch?.batchId === batchId),
    );
    expect(runs).toHaveLength(2);
    const figures = runs.map(figuresOf);
    const steps = figures.map((f) => f.steps);
    const tokens = figures.map((f) => f.tokens);
    const ms = figures.map((f) => f.durationMs);
    expect(steps).toEqual([2, 2]);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
    const row = ran.stdout.split('\n').find((line) => line.startsWith('1. failing'));
    expect(row, ran.stdout).toContain(
      `2 finished with tool errors · per run 2 steps, ${Math.round(mean(tokens))} tok, ${seconds(Math.round(mean(ms)))} (mean of 2)`,
    );
    // never the sum over the repeats, which read like one run
    expect(row).not.toContain('4 steps');
    expect(row).not.toContain(`${tokens[0]! + tokens[1]!} tok`);
    // the history labels the same runs the same way
    const list = await workbench(home, ['runs', 'list', '--batch', batchId]).done;
    expect(list.stdout.match(/finished with 1 tool error/g)).toHaveLength(2);
  }, 120_000);

  it('after kill -9 mid-batch, --resume runs only what had not finished', async () => {
    const home = newHome();
    const tasks = taskFile([{ task: 'slow one' }, { task: 'slow two' }, { task: 'slow three' }]);
    const first = workbench(home, [
      'batch',
      tasks,
      '--agent',
      'swe',
      '--profile',
      'fast',
      '--profile',
      'slow',
      '--concurrency',
      '2',
      '--check',
      'test -f out.txt',
    ]);
    // Killed once two runs finished, while the next two are on their way.
    await until(() => /: 2\/6 done, 2 running/.test(first.stderr()));
    first.child.kill('SIGKILL');
    await first.done;
    const batchId = /^batch (\S+)$/m.exec(first.stderr())?.[1] ?? '';
    expect(batchId).toMatch(/^b-/);
    const before = JSON.parse(
      readFileSync(join(home, 'batches', batchId, 'state.json'), 'utf8'),
    ) as BatchState;
    const finishedBefore = Object.entries(before.items).filter(([, i]) => i.status === 'done');
    expect(finishedBefore.length).toBeGreaterThanOrEqual(2);
    expect(finishedBefore.length).toBeLessThan(6);

    const resumed = workbench(home, ['batch', '--resume', batchId, '--json']);
    const ran = await resumed.done;
    expect(ran.code, ran.stderr).toBe(0);
    const grid = JSON.parse(ran.stdout) as BatchGrid;
    expect(grid.progress).toMatchObject({ total: 6, done: 6, isComplete: true });
    const cellRuns = grid.cells.flat().flatMap((c) => c.runs);
    // The finished runs are kept, not repeated...
    for (const [key, item] of finishedBefore)
      expect(cellRuns.find((r) => r.key === key)?.runId).toBe(item.runId);
    const runs = histories(home);
    const byItem = new Map<string, RunEvent[][]>();
    for (const events of runs.values()) {
      const started = events[0];
      if (started?.type !== 'run.started' || started.batch?.batchId !== batchId) continue;
      byItem.set(started.batch.item, [...(byItem.get(started.batch.item) ?? []), events]);
    }
    for (const [key] of finishedBefore) expect(byItem.get(key)).toHaveLength(1);
    // ...and every item ends with exactly one finished run; the killed ones end without one.
    for (const run of cellRuns) {
      const attempts = byItem.get(run.key) ?? [];
      const finished = attempts.filter((events) => events.some((e) => e.type === 'run.finished'));
      expect(finished, run.key).toHaveLength(1);
      expect(finished[0]?.[0]?.runId).toBe(run.runId);
      expect(run).toMatchObject({ outcome: 'finished', check: true });
    }
    expect([...byItem.values()].flat().length).toBeGreaterThan(6);
    // The killed CLI's containers were swept by the resuming one.
    expect(await containersWith({ [LABELS.pid]: String(first.child.pid) })).toEqual([]);
  }, 120_000);

  it('Ctrl-C stops the batch, says how to resume it, and exits 130', async () => {
    const home = newHome();
    const tasks = taskFile([{ task: 'slow one' }, { task: 'slow two' }]);
    const first = workbench(home, ['batch', tasks, '--agent', 'swe', '--profile', 'slow']);
    await until(() => /: [01]\/2 done, 1 running/.test(first.stderr()));
    first.child.kill('SIGINT');
    const ran = await first.done;
    const batchId = /^batch (\S+)$/m.exec(ran.stderr)?.[1] ?? '';
    expect(ran.stderr).toContain(
      `workbench: stopping the batch; resume with: workbench batch --resume ${batchId}`,
    );
    expect(ran.code).toBe(130);
  }, 120_000);
});

describe('workbench batch: bad usage', () => {
  it('exits 2 naming the problem: an unknown profile, a bad task line, a missing config, an unknown batch', async () => {
    const home = newHome();
    const tasks = taskFile([{ task: 'alpha' }]);
    const cases: [string[], RegExp][] = [
      [['batch', tasks, '--agent', 'swe', '--profile', 'nope'], /--profile nope: no \[llm\.nope\]/],
      [
        ['batch', taskFile([{ task: 'x', chek: 'y' }]), '--agent', 'swe'],
        /line 1: unknown key "chek"/,
      ],
      [['batch', tasks, '--config', join(dir, 'missing.toml')], /config file not found/],
      [['batch', '--resume', 'b-none'], /No batch "b-none"/],
      [['batch', tasks, '--repeat', '0'], /--repeat must be a positive integer/],
    ];
    for (const [args, message] of cases) {
      const ran = await workbench(home, args).done;
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr).toMatch(message);
    }
  });
});
