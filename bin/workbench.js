#!/usr/bin/env node
// The `workbench` command. The CLI is compiled with the rest of the main process
// (`npm run build`); this shim only loads it and explains what to do when it is missing.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error(
    'workbench: the CLI is not built yet. Run `npm run build` in the project folder first.',
  );
  process.exit(2);
}
await import(pathToFileURL(cli).href);
