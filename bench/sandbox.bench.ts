/**
 * The sandbox's command round trip and start-up, on the real Docker engine with the
 * local image. Baselines measured in the same run:
 * - round trip of a trivial command (`echo ok`) through the persistent shell, against a
 *   plain `docker exec` of the same command (the docker CLI, as a user would run it) and
 *   a one-shot exec through the engine API (what a shell-less design pays per command);
 * - what the sandbox's checks after each command cost (OOM and process-table look, the
 *   fork-bomb guard of issue 12): the same shell command without them;
 * - time from "no container" to "ready" (image present, container created and started).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sandboxSchema } from '../src-main/runtime/config/schema';
import { SandboxManager } from '../src-main/runtime/sandbox/sandbox-manager';
import { LOCAL_SANDBOX_IMAGE } from '../src-main/runtime/sandbox/testing/docker-env';
import { Session } from '../src-main/runtime/session/session';
import { report, type BenchResult } from './report';

const run = promisify(execFile);

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function timeEach(count: number, fn: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return samples;
}

async function dockerAvailable(): Promise<string | null> {
  try {
    await run('docker', ['image', 'inspect', LOCAL_SANDBOX_IMAGE], { timeout: 10_000 });
    return null;
  } catch {
    return `Docker or the image ${LOCAL_SANDBOX_IMAGE} is not available (run scripts/setup-system.sh)`;
  }
}

export async function sandboxBench(): Promise<BenchResult> {
  const name = 'sandbox: command round trip and start-up (local image)';
  const missing = await dockerAvailable();
  if (missing) {
    console.log(`\n## ${name}\n  skipped: ${missing}`);
    return { name, figures: [] };
  }
  const manager = new SandboxManager();
  const settings = sandboxSchema.parse({ image: LOCAL_SANDBOX_IMAGE });
  const workspaces = mkdtempSync(join(tmpdir(), 'wb-bench-sandbox-'));
  try {
    // Start-up: a fresh session each time, so each acquire creates a container.
    const startups: number[] = [];
    for (let i = 0; i < 5; i++) {
      const session = new Session(`bench-${i}`, join(workspaces, String(i)));
      const t = performance.now();
      await manager.acquire(session, settings);
      startups.push(performance.now() - t);
      await session.close();
    }

    const session = new Session('bench-rt', join(workspaces, 'rt'));
    const sandbox = await manager.acquire(session, settings);
    const shell = await sandbox.openShell();
    const viaShell = async () => {
      const r = await sandbox.runInShell(shell, 'echo ok', { timeoutMs: 10_000 });
      if (r.stdout !== 'ok\n')
        throw new Error(`unexpected shell output ${JSON.stringify(r.stdout)}`);
    };
    // The same shell, straight: no review, no process-table look (the checks' baseline).
    const viaRawShell = async () => {
      const r = await shell.run('echo ok', { timeoutMs: 10_000 });
      if (r.stdout !== 'ok\n') throw new Error(`unexpected raw output ${JSON.stringify(r.stdout)}`);
    };
    const viaApiExec = async () => {
      const r = await sandbox.exec(['echo', 'ok'], { timeoutMs: 10_000 });
      if (r.stdout !== 'ok\n')
        throw new Error(`unexpected exec output ${JSON.stringify(r.stdout)}`);
    };
    const viaDockerCli = async () => {
      const { stdout } = await run('docker', ['exec', sandbox.id, 'echo', 'ok']);
      if (stdout !== 'ok\n')
        throw new Error(`unexpected docker exec output ${JSON.stringify(stdout)}`);
    };
    // Warm up each path once (connection pools, page cache), then measure.
    await viaShell();
    await viaRawShell();
    await viaApiExec();
    await viaDockerCli();
    const shellSamples = await timeEach(300, viaShell);
    const rawSamples = await timeEach(300, viaRawShell);
    const apiSamples = await timeEach(40, viaApiExec);
    const cliSamples = await timeEach(20, viaDockerCli);
    await shell.close();
    await session.close();

    const shellMedian = percentile(shellSamples, 50);
    const cliMedian = percentile(cliSamples, 50);
    const apiMedian = percentile(apiSamples, 50);
    const rawMedian = percentile(rawSamples, 50);
    return report(name, [
      { label: 'persistent shell, median', value: shellMedian, unit: 'ms', note: '300 runs' },
      { label: 'persistent shell, p95', value: percentile(shellSamples, 95), unit: 'ms' },
      {
        label: 'same shell without the checks, median',
        value: rawMedian,
        unit: 'ms',
        note: '300 runs, baseline',
      },
      {
        label: 'same shell without the checks, p95',
        value: percentile(rawSamples, 95),
        unit: 'ms',
      },
      { label: 'with checks / without, median', value: shellMedian / rawMedian, unit: '×' },
      {
        label: 'docker exec (CLI), median',
        value: cliMedian,
        unit: 'ms',
        note: '20 runs, baseline',
      },
      {
        label: 'one-shot exec (engine API), median',
        value: apiMedian,
        unit: 'ms',
        note: '40 runs',
      },
      { label: 'docker exec / persistent shell', value: cliMedian / shellMedian, unit: '×' },
      { label: 'engine API exec / persistent shell', value: apiMedian / shellMedian, unit: '×' },
      {
        label: 'no container -> ready, median',
        value: percentile(startups, 50),
        unit: 'ms',
        note: '5 runs',
      },
      { label: 'no container -> ready, worst', value: Math.max(...startups), unit: 'ms' },
    ]);
  } finally {
    await manager.dispose();
  }
}
