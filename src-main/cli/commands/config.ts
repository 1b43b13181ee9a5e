/**
 * `workbench config show [--agent NAME] [--json] | import-openmanus FILE [--dry-run] |
 * test [--agent NAME]`: the config service from the command line (headless machines
 * have no settings window). Keys are never printed: only whether one is set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AGENT_SETTING_KEYS,
  CONFIG_AGENT_NAMES,
  describeConfigSource,
  LLM_SETTING_KEYS,
  type AgentConfigView,
  type ApiKeyStatus,
  type ConfigAgentName,
} from '@shared/ipc';
import { mcpReach } from '@shared/mcp-reach';
import { runModelOf } from '@shared/run-model';
import { ConfigService } from '../../runtime/config/config-service';
import { ConfigError } from '../../runtime/config/load';
import { FileSecretStore } from '../../runtime/config/secrets';
import { defaultHome } from '../../runtime/config/home';
import { parseCommandArgs } from '../parse-args';
import { EXIT, HelpRequested, UsageError } from '../usage-error';
import { helpTopicAfter } from '../usage';

function openConfig(file?: string): ConfigService {
  const home = defaultHome();
  return new ConfigService({
    file: file ?? join(home, 'config.toml'),
    secrets: new FileSecretStore(join(home, 'secrets.json'), undefined, (m) =>
      process.stderr.write(`workbench: ${m}\n`),
    ),
  });
}

export async function configCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '-h' || sub === '--help') throw new HelpRequested('config');
  if (sub === 'help') throw new HelpRequested(helpTopicAfter('config', rest));
  switch (sub) {
    case 'show':
      return show(rest);
    case 'import-openmanus':
      return importOpenManus(rest);
    case 'test':
      return test(rest);
    default:
      throw new UsageError(
        sub === undefined
          ? 'config needs a subcommand: show, import-openmanus FILE, test'
          : `unknown config subcommand "${sub}" (show, import-openmanus, test)`,
      );
  }
}

function target(value: string | undefined): 'default' | ConfigAgentName {
  if (value === undefined) return 'default';
  if (value === 'default' || (CONFIG_AGENT_NAMES as readonly string[]).includes(value)) {
    return value as 'default' | ConfigAgentName;
  }
  throw new UsageError(`unknown agent "${value}" (${CONFIG_AGENT_NAMES.join(', ')}, default)`);
}

function keyText(key: ApiKeyStatus): string {
  const how =
    key.storage === 'env'
      ? `env:${key.envVar ?? ''}${key.isSet ? '' : ' (variable not set)'}`
      : key.storage === 'stored'
        ? `stored${key.isSet ? '' : ' (cannot be read here)'}`
        : key.storage;
  return `${key.isSet ? 'set' : 'not set'} [${how}] from ${describeConfigSource(key.source)}`;
}

function printAgent(view: AgentConfigView): void {
  const lines = [`[${view.agent}]${view.profile ? ` uses profile [llm.${view.profile}]` : ''}`];
  for (const key of LLM_SETTING_KEYS) {
    const field = view.llm[key];
    lines.push(
      `  ${key} = ${JSON.stringify(field.value)}  (${describeConfigSource(field.source)})`,
    );
  }
  lines.push(`  api_key: ${keyText(view.apiKey)}`);
  // What a run of this agent will really talk to (no key: the demo, whatever `model` says).
  const model = runModelOf(view);
  lines.push(
    `  runs use: ${model.label}${model.isDemo ? ' (set api_key to use a real model)' : ''}`,
  );
  for (const key of AGENT_SETTING_KEYS) {
    const field = view.settings[key];
    lines.push(
      `  ${key} = ${JSON.stringify(field.value)}  (${describeConfigSource(field.source)})`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Profiles no agent uses ([llm.vision] of an OpenManus config, before an agent chooses
 * it) are shown too, with how to use them: a profile that silently does nothing was
 * what OpenManus did with [llm.vision].
 */
function printUnusedProfiles(view: ReturnType<ConfigService['view']>): void {
  const used = new Set(CONFIG_AGENT_NAMES.map((agent) => view.agents[agent].profile));
  for (const profile of view.profiles.filter((p) => !used.has(p))) {
    process.stdout.write(
      `[llm.${profile}] is used by no agent: choose it with [agent.NAME] llm = "${profile}"\n`,
    );
  }
}

function show(args: string[]): number {
  const { values, positionals } = parseCommandArgs('config show', args, {
    agent: { type: 'string' },
    json: { type: 'boolean', default: false },
    config: { type: 'string', short: 'c' },
  });
  if (positionals.length > 0) throw new UsageError('config show takes no arguments');
  const chosen = target(values.agent);
  const view = openConfig(values.config).view();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
    return view.error ? EXIT.usage : EXIT.finished;
  }
  process.stdout.write(`# ${view.file}${view.exists ? '' : ' (does not exist yet: defaults)'}\n`);
  if (view.error) {
    for (const issue of view.error.issues) {
      process.stderr.write(
        `workbench: ${view.file}${issue.line !== undefined ? `:${issue.line}` : ''}: ${issue.path}: ${issue.message}\n`,
      );
    }
  }
  const agents = chosen === 'default' ? CONFIG_AGENT_NAMES : [chosen];
  for (const agent of agents) printAgent(view.agents[agent]);
  if (chosen === 'default') printUnusedProfiles(view);
  return view.error ? EXIT.usage : EXIT.finished;
}

function importOpenManus(args: string[]): number {
  const { values, positionals } = parseCommandArgs('config import-openmanus', args, {
    'dry-run': { type: 'boolean', default: false },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    throw new UsageError('usage: workbench config import-openmanus FILE [--dry-run]');
  }
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const config = openConfig();
  try {
    const result = config.importOpenManus({ content, fileName: file, dryRun: values['dry-run'] });
    for (const path of result.imported) process.stdout.write(`imported  ${path}\n`);
    for (const { path, reason } of result.ignored)
      process.stdout.write(`ignored   ${path}: ${reason}\n`);
    // Servers added: which agents get their tools (issue 25 item 11), never silently.
    const added = result.imported.flatMap(
      (line) => /\[mcp\.servers\.([\w-]+)\]/.exec(line)?.[1] ?? [],
    );
    const mcp = result.config.sections.mcp;
    const names = [...new Set([...mcp.servers.map((server) => server.name), ...added])];
    for (const name of added) {
      process.stderr.write(`[mcp.servers.${name}]: ${mcpReach(name, names, mcp.agentServer)}\n`);
    }
    process.stderr.write(
      !result.isSaved
        ? 'Dry run: nothing was saved\n'
        : result.backupFile
          ? `Saved to ${config.file} (the previous file is kept as ${result.backupFile})\n`
          : `Saved to ${config.file} (a new file: there was no config to back up)\n`,
    );
    return EXIT.finished;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

async function test(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('config test', args, {
    agent: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError('usage: workbench config test [--agent NAME]');
  let profile;
  try {
    profile = openConfig().resolveProfile(target(values.agent));
  } catch (error) {
    if (error instanceof ConfigError || error instanceof Error) throw new UsageError(error.message);
    throw error;
  }
  // Loaded here: the model client library is large and only this subcommand needs it.
  const { testConnection } = await import('../../runtime/config/connection-test');
  const result = await testConnection(profile);
  process.stdout.write(
    `${result.ok ? 'ok' : 'failed'}: ${result.message} (${result.latencyMs} ms)\n`,
  );
  return result.ok ? EXIT.finished : EXIT.error;
}
