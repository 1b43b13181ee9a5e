import { homedir } from 'node:os';
import { join } from 'node:path';

/** WORKBENCH_HOME (config.toml, secrets.json, runs/, workspaces/): default ~/.agent-workbench. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return env['WORKBENCH_HOME'] || join(homedir(), '.agent-workbench');
}
