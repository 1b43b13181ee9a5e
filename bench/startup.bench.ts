/**
 * Start-up time and memory of the `workbench` command (issue 16 item 7), as a user meets
 * them: a real process, the built CLI, a model behind a local OpenAI-compatible server
 * (the project's scripted server in its own process, so the measured process holds only
 * what a run against a real provider holds).
 *
 * - time from starting `workbench run --jsonl` to its first event on stdout, for the
 *   toolcall and manus agents; baseline in the same run: `node -e 0` (process start
 *   alone) and `workbench --help` (loading the CLI);
 * - peak RSS of a 1,000-step toolcall run; baseline: the peak RSS of `node -e 0`.
 * Medians of several runs (the machine is shared), with the fastest next to them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { report, type BenchResult, type Figure } from './report';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(root, 'bin/workbench.js');
const MAX_RSS = pathToFileURL(join(root, 'bench/support/max-rss.mjs')).href;
const FIRST_REQUEST = pathToFileURL(join(root, 'bench/support/first-request.mjs')).href;
const SERVE = join(root, 'src-main/runtime/llm/testing/serve-scripted.ts');
const TSX = createRequire(import.meta.url).resolve('tsx');
const RUNS = 7;
/**
 * Another build's `bin/workbench.js` (a checkout of the previous commit, built), measured
 * in the same run for the before/after rows: WB_STARTUP_BEFORE=/path/bin/workbench.js.
 */
const BEFORE = process.env['WB_STARTUP_BEFORE'];

interface Measured {
  firstLineMs: number;
  /** process start to its first model request (NaN: none) */
  firstRequestMs: number;
  /** CPU time the process had used by its first model request (NaN: none) */
  firstRequestCpuMs: number;
  /** Docker's client, ssh2, protobufjs or gRPC loaded by then */
  heavy: string;
  exitMs: number;
  code: number | null;
  maxRssKb: number;
  /** CPU time used by the whole process */
  cpuMs: number;
}

function measure(args: string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--import', MAX_RSS, '--import', FIRST_REQUEST, ...args],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let firstLineMs = NaN;
    let stderr = '';
    child.stdout.on('data', () => {
      if (Number.isNaN(firstLineMs)) firstLineMs = performance.now() - started;
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const rss = /WB_MAX_RSS_KB=(\d+)/.exec(stderr);
      if (!rss) return reject(new Error(`no RSS reported (exit ${code}): ${stderr.slice(-500)}`));
      const first =
        /WB_FIRST_REQUEST_MS=([\d.]+) WB_HEAVY=(\S*) WB_FIRST_REQUEST_CPU_MS=([\d.]+)/.exec(stderr);
      resolve({
        firstLineMs,
        firstRequestMs: first ? Number(first[1]) : NaN,
        firstRequestCpuMs: first ? Number(first[3]) : NaN,
        heavy: first?.[2] ?? '',
        exitMs: performance.now() - started,
        code,
        maxRssKb: Number(rss[1]),
        cpuMs: Number(/WB_CPU_MS=([\d.]+)/.exec(stderr)?.[1] ?? NaN),
      });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function startServer(scenarios: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', TSX, SERVE, '--scenarios', scenarios], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /SCRIPTED_OPENAI_URL=(\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`scripted server exited with ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

export async function startupBench(): Promise<BenchResult> {
  const home = mkdtempSync(join(tmpdir(), 'wb-bench-startup-'));
  const scenarios = join(home, 'scenarios.json');
  writeFileSync(
    scenarios,
    JSON.stringify({
      scenarios: [
        {
          name: 'hello',
          match: ['say hello'],
          turns: [
            {
              content: 'Hello.',
              toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
            },
          ],
        },
        {
          name: 'steps',
          match: ['keep going'],
          turns: [
            {
              content: 'Step {{turn}}: answering.',
              toolCalls: [
                { name: 'create_chat_completion', arguments: { response: 'answer {{turn}}' } },
              ],
            },
          ],
        },
      ],
    }),
  );
  const server = await startServer(scenarios);
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "bench"\nbase_url = "${server.url}"\napi_key = "sk-bench-startup"\n`,
  );
  const env = { ...process.env, WORKBENCH_HOME: home };
  try {
    const samples = async (args: string[], runs = RUNS) => {
      const out: Measured[] = [];
      for (let i = 0; i < runs; i++) out.push(await measure(args, env));
      return out;
    };
    // Each CLI's runs alternate with the other's, so a change of load hits both alike.
    const clis = BEFORE ? [CLI, BEFORE] : [CLI];
    const alternating = async (args: (cli: string) => string[], runs = RUNS) => {
      const out = clis.map((): Measured[] => []);
      for (let i = 0; i < runs; i++) {
        for (const [k, cli] of clis.entries()) out[k]!.push(await measure(args(cli), env));
      }
      return out;
    };
    const nodeAlone = await samples(['-e', '0']);
    const help = await samples([CLI, '--help']);
    const toolcalls = await alternating((cli) => [
      cli,
      'run',
      '--agent',
      'toolcall',
      '--jsonl',
      'say hello',
    ]);
    const manuses = await alternating((cli) => [
      cli,
      'run',
      '--agent',
      'manus',
      '--jsonl',
      'say hello',
    ]);
    for (const run of [...toolcalls.flat(), ...manuses.flat()]) {
      if (run.code !== 0) throw new Error(`a measured run exited with ${run.code}`);
    }
    const longs = await alternating(
      (cli) => [cli, 'run', '--agent', 'toolcall', '--max-steps', '1000', '--jsonl', 'keep going'],
      3,
    );
    if (longs.flat().some((r) => r.code !== 3))
      throw new Error('the 1,000-step run did not reach max steps');
    const [toolcall, manus, long] = [toolcalls[0]!, manuses[0]!, longs[0]!];

    const baseStart = median(nodeAlone.map((r) => r.exitMs));
    const request = (runs: Measured[]) => median(runs.map((r) => r.firstRequestMs));
    const heavy = (runs: Measured[]) =>
      [...new Set(runs.flatMap((r) => (r.heavy ? r.heavy.split(',') : [])))].join(', ') || 'none';
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const first = (runs: Measured[]) => median(runs.map((r) => r.firstLineMs));
    const fastest = (runs: Measured[]) => Math.min(...runs.map((r) => r.firstLineMs));
    const mib = (kb: number) => kb / 1024;
    const baseRss = mib(median(nodeAlone.map((r) => r.maxRssKb)));
    const longRss = mib(median(long.map((r) => r.maxRssKb)));
    return report(
      `startup: workbench run to its first event and model request, and memory (scripted model server; load ${load})`,
      [
        { label: 'baseline: node -e 0 (start to exit)', value: baseStart, unit: 'ms' },
        {
          label: 'baseline: workbench --help (start to exit)',
          value: median(help.map((r) => r.exitMs)),
          unit: 'ms',
        },
        {
          label: 'toolcall: first event',
          value: first(toolcall),
          unit: 'ms',
          note: `fastest ${fastest(toolcall).toFixed(0)} ms, ${(first(toolcall) / baseStart).toFixed(1)}× node -e 0; goal < 500`,
        },
        {
          label: 'manus: first event',
          value: first(manus),
          unit: 'ms',
          note: `fastest ${fastest(manus).toFixed(0)} ms, ${(first(manus) / baseStart).toFixed(1)}× node -e 0; goal < 500`,
        },
        {
          label: 'toolcall: process start to first model request',
          value: request(toolcall),
          unit: 'ms',
          note: `goal < 250; loaded by then of Docker/ssh2/protobufjs/gRPC: ${heavy(toolcall)}`,
        },
        {
          label: 'manus: process start to first model request',
          value: request(manus),
          unit: 'ms',
          note: `goal < 250; loaded by then of Docker/ssh2/protobufjs/gRPC: ${heavy(manus)}`,
        },
        {
          label: 'toolcall: CPU time by its first model request',
          value: median(toolcall.map((r) => r.firstRequestCpuMs)),
          unit: 'ms',
          note: `node -e 0 uses ${median(nodeAlone.map((r) => r.cpuMs)).toFixed(0)} ms in all`,
        },
        ...(BEFORE ? beforeRows(toolcalls[1]!, manuses[1]!, longs[1]!) : []),
        {
          label: 'toolcall: peak RSS of a short run',
          value: mib(median(toolcall.map((r) => r.maxRssKb))),
          unit: 'MiB',
        },
        {
          label: '1,000-step toolcall run: peak RSS',
          value: longRss,
          unit: 'MiB',
          note: `${(longRss / baseRss).toFixed(1)}× node -e 0 (${baseRss.toFixed(0)} MiB); goal < 90`,
        },
        {
          label: '1,000-step toolcall run: wall time',
          value: median(long.map((r) => r.exitMs)) / 1000,
          unit: 's',
        },
      ],
    );
  } finally {
    server.stop();
  }
}

/** The same rows for the build in WB_STARTUP_BEFORE, measured alternately with this one. */
function beforeRows(toolcall: Measured[], manus: Measured[], long: Measured[]): Figure[] {
  const mib = (kb: number) => kb / 1024;
  return [
    {
      label: 'before: toolcall, start to first model request',
      value: median(toolcall.map((r) => r.firstRequestMs)),
      unit: 'ms',
    },
    {
      label: 'before: manus, start to first model request',
      value: median(manus.map((r) => r.firstRequestMs)),
      unit: 'ms',
    },
    {
      label: 'before: toolcall, CPU time by its first model request',
      value: median(toolcall.map((r) => r.firstRequestCpuMs)),
      unit: 'ms',
    },
    {
      label: 'before: 1,000-step toolcall run, peak RSS',
      value: mib(median(long.map((r) => r.maxRssKb))),
      unit: 'MiB',
    },
  ];
}
