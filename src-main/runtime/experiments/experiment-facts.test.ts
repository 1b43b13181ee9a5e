/**
 * The experiment's facts file (experiment-facts.ts): the report of an experiment reads
 * its runs' facts from one file beside the record instead of every run's history, and is
 * the same with the file, without it, or with a stale or broken one (rebuilt from the
 * histories then, and the file rewritten).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExperimentRunFacts } from '@shared/experiments/experiment-types';
import { writeExperiment } from '../../../bench/experiment-home';
import { createRuntime, type Runtime } from '../runtime';
import { factsFile } from './experiment-facts';

const ID = 'x-facts';
const homes: string[] = [];
const runtimes: Runtime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.dispose()));
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function home(options: { facts?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-facts-'));
  homes.push(dir);
  writeExperiment(dir, ID, 6, 2, options);
  return dir;
}

/** The report as a fresh process shows it (nothing kept in memory). */
function report(dir: string): string {
  const runtime = createRuntime({ home: dir, sweepAtStart: false });
  runtimes.push(runtime);
  return JSON.stringify(runtime.experiments.report(ID));
}

interface StoredFacts {
  batchId: string;
  runs: ExperimentRunFacts[];
}

const file = (dir: string) => factsFile(join(dir, 'experiments'), ID);
const stored = (dir: string) => JSON.parse(readFileSync(file(dir), 'utf8')) as StoredFacts;

describe('the experiment facts file', () => {
  it('is written on the first report from the histories, and gives the same report', () => {
    const dir = home();
    expect(existsSync(file(dir))).toBe(false);
    const fromHistories = report(dir);
    expect(stored(dir).runs).toHaveLength(6 * 2 * 2);
    expect(report(dir)).toBe(fromHistories);
    // the same as the file the runtime leaves as runs end (the bench's)
    const written = home({ facts: true });
    expect(report(written)).toBe(fromHistories.replaceAll(dir, written));
  });

  it('is what a report reads: not the histories', () => {
    const dir = home({ facts: true });
    const before = report(dir);
    const facts = stored(dir);
    const changed = facts.runs[0]!;
    changed.scores['judge'] = changed.scores['judge'] === 0.25 ? 0.75 : 0.25;
    writeFileSync(file(dir), JSON.stringify(facts));
    expect(report(dir)).not.toBe(before);
  });

  it('is rebuilt from the histories when missing, broken, stale or of another batch', () => {
    const dir = home();
    const fromHistories = report(dir);
    const facts = stored(dir);

    writeFileSync(file(dir), '{"version": 1, "runs": [');
    expect(report(dir)).toBe(fromHistories);
    expect(stored(dir).runs).toHaveLength(24);

    writeFileSync(file(dir), JSON.stringify({ ...facts, batchId: 'b-other' }));
    expect(report(dir)).toBe(fromHistories);
    expect(stored(dir).batchId).toBe(facts.batchId);

    // written before the last runs ended, and naming a run the batch no longer holds
    const ghost = { ...facts.runs[0]!, runId: 'r-gone', scores: { judge: 0.5 } };
    writeFileSync(
      file(dir),
      JSON.stringify({ ...facts, runs: [...facts.runs.slice(0, 10), ghost, { runId: 7 }] }),
    );
    expect(report(dir)).toBe(fromHistories);
    const rewritten = stored(dir).runs.map((r) => r.runId);
    expect(rewritten).toHaveLength(24);
    expect(rewritten).not.toContain('r-gone');

    rmSync(file(dir));
    expect(report(dir)).toBe(fromHistories);
  });
});
