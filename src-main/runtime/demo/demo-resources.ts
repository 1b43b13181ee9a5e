/**
 * Where the bundled demo scenarios live (`resources/demo/`), found by walking up from
 * this module: the same code runs from src-main (tests), out/main (CLI, serve, Electron
 * in development) and inside the packaged app. WORKBENCH_RESOURCES overrides it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function demoScenarioDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['WORKBENCH_RESOURCES'];
  if (override) return join(override, 'demo');
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'resources', 'demo');
    if (existsSync(join(candidate, 'default.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(
    'The bundled demo scenarios (resources/demo) were not found; set WORKBENCH_RESOURCES to the resources folder.',
  );
}

/** The agent's own demo scenario if there is one, else the generic one. */
export function demoScenarioFor(agent: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = demoScenarioDir(env);
  const own = join(dir, `${agent}.json`);
  return existsSync(own) ? own : join(dir, 'default.json');
}
