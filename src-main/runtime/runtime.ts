/**
 * The runtime as the hosts see it (the composition root): one object that owns the run
 * manager, the sessions and everything that must be released when the app quits. Plain
 * Node: importing electron here is a lint error.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfigFile } from './config/load';
import type { LlmClient } from './llm/llm-client';
import type { LlmProfile } from './config/schema';
import { RunManager, type RunFactory } from './runs/run-manager';
import { createRunFactory } from './runs/run-factory';
import type { RuntimeServices } from './services';
import { SessionRegistry } from './session/session';

export interface RuntimeOptions {
  /** defaults to $WORKBENCH_HOME, else ~/.agent-workbench */
  home?: string;
  /** config file; defaults to <home>/config.toml */
  configFile?: string;
  /** replaces the config-driven factory (tests) */
  factory?: RunFactory;
  createLlm?: (profile: LlmProfile) => LlmClient;
  sessionId?: string;
}

export interface Runtime {
  runs: RunManager;
  services: RuntimeServices;
  dispose(): Promise<void>;
}

export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return env['WORKBENCH_HOME'] || join(homedir(), '.agent-workbench');
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const home = options.home ?? defaultHome();
  const configFile = options.configFile ?? join(home, 'config.toml');
  const services: RuntimeServices = {
    home,
    loadConfig: () => loadConfigFile(configFile),
    sessions: new SessionRegistry(join(home, 'workspaces')),
    createLlm:
      options.createLlm ??
      ((profile) => {
        throw new Error(`No model client is available yet for api_type "${profile.apiType}"`);
      }),
  };
  const runs = new RunManager(options.factory ?? createRunFactory(services), {
    sessionId: options.sessionId ?? `s-${randomUUID().slice(0, 8)}`,
  });
  return {
    runs,
    services,
    async dispose() {
      await runs.dispose();
      await services.sessions.closeAll();
    },
  };
}
