/**
 * The Files panel's host side (issue 32): opening the workspace tree at a step of a
 * 1,000-step run whose workspace holds 5,000 files (each step changes 5 of them; the
 * checkpoints are the real host snapshots the recorder takes), and the diff of a step
 * that changed a 1 MB text file. Targets: the tree < 300 ms at any step, the diff < 100 ms.
 * Baselines measured in the same run: reading and parsing the step's own listing (what
 * any tree at a step needs at least), and reading the two versions of the 1 MB file.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointedFolder } from '../src-main/runtime/timetravel/testing/checkpointed-folder';
import { WorkspaceFiles } from '../src-main/runtime/timetravel/workspace-files';
import { WorkspaceHistory } from '../src-main/runtime/timetravel/workspace-history';
import { report, type BenchResult, type Figure } from './report';

const STEPS = 1_000;
const FILES = 5_000;
const CHANGED_PER_STEP = 5;
const PROBES = [1, 250, 500, 750, 999, 1_000];

function ms(start: number): number {
  return performance.now() - start;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function longRun(): Promise<{ files: WorkspaceFiles; run: CheckpointedFolder }> {
  const folder = mkdtempSync(join(tmpdir(), 'wb-bench-files-ws-'));
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(folder, `pkg${d}`));
    for (let f = 0; f < 100; f++) {
      writeFileSync(
        join(folder, `pkg${d}`, `mod${f}.py`),
        `# module ${d}/${f}\n${'x = 1\n'.repeat(40)}`,
      );
    }
  }
  const run = new CheckpointedFolder(folder);
  const started = performance.now();
  await run.checkpoint(1);
  for (let step = 2; step <= STEPS; step++) {
    for (let i = 0; i < CHANGED_PER_STEP; i++) {
      const n = (step * CHANGED_PER_STEP + i) % FILES;
      const path = join(folder, `pkg${Math.floor(n / 100)}`, `mod${n % 100}.py`);
      writeFileSync(path, `# step ${step}\n${readFileSync(path, 'utf8')}`);
    }
    await run.checkpoint(step);
  }
  console.log(
    `  (made ${STEPS} checkpoints of ${FILES} files in ${(ms(started) / 1000).toFixed(1)} s)`,
  );
  rmSync(folder, { recursive: true, force: true });
  return { files: new WorkspaceFiles(new WorkspaceHistory(run.store)), run };
}

async function bigTextRun(): Promise<{ files: WorkspaceFiles; run: CheckpointedFolder }> {
  const folder = mkdtempSync(join(tmpdir(), 'wb-bench-files-big-'));
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}: ${'lorem ipsum '.repeat(3)}`);
  writeFileSync(join(folder, 'big.txt'), `${lines.join('\n')}\n`);
  const run = new CheckpointedFolder(folder, '20261201T000000-0000b16f');
  await run.checkpoint(1);
  await new Promise((resolve) => setTimeout(resolve, 30));
  for (let i = 0; i < 10; i++) lines[i * 1_900] = `changed line ${i}`;
  writeFileSync(join(folder, 'big.txt'), `${lines.join('\n')}\n`);
  await run.checkpoint(2);
  return { files: new WorkspaceFiles(new WorkspaceHistory(run.store)), run };
}

export async function filesBench(): Promise<BenchResult> {
  const name = `files: the tree at a step of a ${STEPS}-step run with ${FILES} files; a step diff of a 1 MB text file`;
  console.log(`\n## ${name}`);
  const figures: Figure[] = [];
  const { files, run } = await longRun();

  // baseline: the step's own listing, read and parsed
  const listing: number[] = [];
  for (const step of PROBES) {
    const start = performance.now();
    JSON.parse(readFileSync(join(run.store.dirOf(run.runId), `step-${step}.json`), 'utf8'));
    listing.push(ms(start));
  }
  const baseline = median(listing);
  figures.push({
    label: 'baseline: read + parse the step listing',
    value: baseline,
    unit: 'ms',
    note: 'p50',
  });

  for (const step of PROBES) {
    const start = performance.now();
    const tree = files.tree(run.runId, step);
    const first = ms(start);
    if (tree.entries.filter((e) => e.kind === 'file').length !== FILES) {
      throw new Error(`step ${step}: ${tree.entries.length} entries`);
    }
    const again: number[] = [];
    for (let i = 0; i < 3; i++) {
      const s = performance.now();
      files.tree(run.runId, step);
      again.push(ms(s));
    }
    figures.push({
      label: `tree at step ${step}, first open`,
      value: first,
      unit: 'ms',
      note: `${(first / baseline).toFixed(1)}x baseline; ${first < 300 ? 'under' : 'OVER'} 300 ms`,
    });
    figures.push({
      label: `tree at step ${step}, again (p50 of 3)`,
      value: median(again),
      unit: 'ms',
    });
  }

  const big = await bigTextRun();
  const readBoth: number[] = [];
  const diffs: number[] = [];
  for (let i = 0; i < 5; i++) {
    let s = performance.now();
    big.files.file(big.run.runId, 1, 'big.txt');
    big.files.file(big.run.runId, 2, 'big.txt');
    readBoth.push(ms(s));
    s = performance.now();
    const changes = big.files.changes(big.run.runId, 2);
    diffs.push(ms(s));
    if (changes.files[0]?.added !== 10) throw new Error('the 1 MB diff found the wrong lines');
  }
  const readMs = median(readBoth);
  const diffMs = median(diffs);
  figures.push({
    label: 'baseline: read both versions of the 1 MB file',
    value: readMs,
    unit: 'ms',
    note: 'p50 of 5',
  });
  figures.push({
    label: 'step diff of the 1 MB text file',
    value: diffMs,
    unit: 'ms',
    note: `p50 of 5, first ${diffs[0]!.toFixed(1)} ms; ${(diffMs / readMs).toFixed(1)}x baseline; ${diffMs < 100 ? 'under' : 'OVER'} 100 ms`,
  });
  rmSync(run.store.dir, { recursive: true, force: true });
  rmSync(big.run.store.dir, { recursive: true, force: true });
  return report(name, figures);
}
