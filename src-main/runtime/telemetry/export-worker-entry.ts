/**
 * Where the export thread's code is. Built (`npm start`, `workbench serve`, the CLI, the
 * packaged app), it is its own entry, out/main/otlp-export-worker.js, next to the entry
 * this module was bundled into (out/main/index.js or cli.js) or one folder up from a chunk
 * (out/main/chunks/): found relative to this module, like the renderer (serve.ts). Inside
 * the packaged app that is app.asar, which Electron's worker threads read since Electron 17
 * (electron/electron#33216).
 *
 * From source (tests under vitest, the benches under tsx) this module is a .ts file and
 * Node cannot start a worker on TypeScript: the worker registers tsx's loader, then
 * imports the same export-worker.ts, so tests run the real export thread, not a stand-in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

export const BUILT_WORKER = 'otlp-export-worker.js';

export interface WorkerEntry {
  script: URL | string;
  options: Pick<WorkerOptions, 'eval'>;
}

export function exportWorkerEntry(here: string = import.meta.url): WorkerEntry {
  if (here.endsWith('.ts')) {
    const worker = new URL('./export-worker.ts', here).href;
    const tsx = tsxLoaderApi(here);
    const code =
      `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); ` +
      `return import(${JSON.stringify(worker)}); });`;
    return { script: code, options: { eval: true } };
  }
  const candidates = [`./${BUILT_WORKER}`, `../${BUILT_WORKER}`].map((rel) => new URL(rel, here));
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (!found) {
    throw new Error(
      `live export's thread (${BUILT_WORKER}) is missing next to ${fileURLToPath(here)}: run \`npm run build\``,
    );
  }
  return { script: found, options: {} };
}

/** tsx's ES-module API (`tsx/esm/api`, its "import" export: the CommonJS one cannot load it) */
function tsxLoaderApi(here: string): string {
  const manifest = createRequire(here).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const api = exports['./esm/api']?.import.default;
  if (!api) throw new Error(`tsx (${manifest}) has no ./esm/api export`);
  return pathToFileURL(join(dirname(manifest), api)).href;
}
