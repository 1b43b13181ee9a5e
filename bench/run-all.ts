/**
 * `npm run bench`: runs every benchmark and prints its figures, each with a ratio
 * against a baseline measured in the same run. Pass names to run a subset:
 * `npm run bench -- loop`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loopOverheadBench } from './loop-overhead.bench';
import { sandboxBench } from './sandbox.bench';
import { browserScreenshotsBench } from './browser-screenshots.bench';
import { compareBench } from './compare.bench';
import { hostThroughputBench } from './host-throughput.bench';
import type { BenchResult } from './report';
import { uiLoadBench } from './ui-load.bench';
import { debuggerBench } from './debugger.bench';
import { startupBench } from './startup.bench';
import { forkBench } from './fork.bench';
import { batchBench } from './batch.bench';
import { modelCallBench } from './model-call.bench';
import { agentsBench } from './agents.bench';
import { agentsPageBench } from './agents-page.bench';
import { experimentBench } from './experiment.bench';
import { experimentUiBench } from './experiment-ui.bench';
import { gatewayBench } from './gateway.bench';
import { telemetryBench } from './telemetry.bench';
import { filesBench } from './files.bench';
import { serveMemoryBench } from './serve-memory.bench';
import { timelineFoldBench } from './timeline-fold.bench';
import { firstPageBench } from './first-page.bench';

const benches: Record<string, () => Promise<BenchResult>> = {
  loop: loopOverheadBench,
  model: modelCallBench,
  sandbox: sandboxBench,
  browser: browserScreenshotsBench,
  ui: uiLoadBench,
  host: hostThroughputBench,
  debugger: debuggerBench,
  diff: compareBench,
  startup: startupBench,
  fork: forkBench,
  batch: batchBench,
  agents: agentsBench,
  'agents-page': agentsPageBench,
  experiment: experimentBench,
  'experiment-ui': experimentUiBench,
  gateway: gatewayBench,
  telemetry: telemetryBench,
  files: filesBench,
  'serve-memory': serveMemoryBench,
  'timeline-fold': timelineFoldBench,
  'first-page': firstPageBench,
};

const wanted = process.argv.slice(2);
const selected = Object.entries(benches).filter(
  ([name]) => wanted.length === 0 || wanted.includes(name),
);
if (selected.length === 0) {
  console.error(
    `Unknown benchmark(s): ${wanted.join(', ')}. Known: ${Object.keys(benches).join(', ')}`,
  );
  process.exit(2);
}

console.log(`Agent Workbench benchmarks — node ${process.version}, ${new Date().toISOString()}`);
const results: BenchResult[] = [];
for (const [, bench] of selected) results.push(await bench());
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.json', JSON.stringify(results, null, 2));
console.log('\nFigures saved to bench/results/latest.json');
