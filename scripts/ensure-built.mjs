#!/usr/bin/env node
// Builds the app (electron-vite: main + CLI, preload, renderer) when out/ is missing or
// older than any source file, so `npm start`, `npm run serve` and `npm run bench` never
// run a stale build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outputs = [
  'out/main/index.js',
  'out/main/cli.js',
  'out/main/otlp-export-worker.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
];
const sources = [
  'src-main',
  'src-shared',
  'src-renderer',
  'electron.vite.config.ts',
  'package.json',
  'packaging/package.json',
];

function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stats = statSync(full);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let max = stats.mtimeMs;
  for (const entry of readdirSync(full)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

export function isBuildFresh() {
  if (!outputs.every((o) => existsSync(join(root, o)))) return false;
  const built = Math.min(...outputs.map((o) => statSync(join(root, o)).mtimeMs));
  return Math.max(...sources.map(newest)) <= built;
}

export function ensureBuilt() {
  if (isBuildFresh()) return;
  console.error('[workbench] building the app (electron-vite build)...');
  const started = Date.now();
  const result = spawnSync('npx', ['electron-vite', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) {
    console.error('[workbench] the build failed; run `npm run build` to see why.');
    process.exit(result.status ?? 1);
  }
  console.error(`[workbench] built in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) ensureBuilt();
