import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

// electron-vite targets the Electron it finds in node_modules; Electron lives in
// packaging/ (scripts/desktop-tooling.mjs), so it is told the pinned major version.
const electronPin = (
  JSON.parse(readFileSync(resolve(root, 'packaging/package.json'), 'utf8')) as {
    devDependencies: { electron: string };
  }
).devDependencies.electron;
process.env['ELECTRON_MAJOR_VER'] ??= electronPin.split('.')[0];

const BUNDLED_DEPS = ['openai', 'zod', 'diff', 'smol-toml', '@decimalturn/toml-patch'];

const alias = { '@shared': resolve(root, 'src-shared') };

// Three builds: the Electron main process (plus the `workbench` CLI, which shares the
// runtime but never loads Electron, and live export's worker thread), the sandboxed
// preload (must be CommonJS: Electron's sandboxed preloads cannot be ES modules), and the
// React renderer.
export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      // Bundled, not loaded from node_modules at run time (issue 27, start-up): Node 20's
      // ESM loader pays per file (resolve, stat, read, compile, link), and these packages
      // are ~280 files (openai 154, zod 95, diff 19, smol-toml 9) that `workbench run`
      // loads before its first model request; bundled, each is part of one chunk.
      externalizeDeps: { exclude: BUNDLED_DEPS },
      rolldownOptions: {
        input: {
          index: resolve(root, 'src-main/electron/main.ts'),
          cli: resolve(root, 'src-main/cli/main.ts'),
          // live export's thread: a worker_threads Worker is started on a file of its own
          // (src-main/runtime/telemetry/export-worker-entry.ts finds it next to these)
          'otlp-export-worker': resolve(root, 'src-main/runtime/telemetry/export-worker.ts'),
        },
        // The SDK in a chunk of its own, so it is loaded with the first model call and
        // never with a module of ours that rolldown would otherwise group with it.
        output: {
          codeSplitting: {
            groups: [{ name: 'openai-sdk', test: /node_modules[\\/]openai[\\/]/ }],
          },
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { index: resolve(root, 'src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    resolve: { alias },
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // WB_NO_MINIFY=1 keeps function names readable in CPU profiles of the UI
      minify: !process.env['WB_NO_MINIFY'],
      rolldownOptions: {
        input: { index: resolve(root, 'src-renderer/index.html') },
      },
    },
  },
});
