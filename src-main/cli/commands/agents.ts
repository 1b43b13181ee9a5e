/**
 * `workbench agents list|show|new|export`: the agent definitions (docs/agents.md).
 * A definition that does not load is bad usage (exit 2) naming its file, line and fix.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAgentName } from '@shared/domain/agent';
import { parseAgentRef } from '@shared/domain/agent-definition';
import { defaultHome } from '../../runtime/config/home';
import { ConfigError, loadConfigFile } from '../../runtime/config/load';
import type { WorkbenchConfig } from '../../runtime/config/schema';
import {
  agentsDir,
  listAgents,
  recordVersion,
  resolveDefinition,
} from '../../runtime/agents/definitions/agent-store';
import { AGENT_NAME_PATTERN } from '../../runtime/agents/definitions/definition-schema';
import { definitionToToml } from '../../runtime/agents/definitions/definition-toml';
import {
  AgentDefinitionError,
  loadDefinitionText,
} from '../../runtime/agents/definitions/load-definition';
import { definitionContext } from '../../runtime/launch/run-definition';
import { starterDefinitionText } from '../../runtime/agents/definitions/starter-definition';
import { parseCommandArgs } from '../parse-args';
import { EXIT, HelpRequested, UsageError } from '../usage-error';
import { helpTopicAfter } from '../usage';

function loadConfig(file: string | undefined, home: string): WorkbenchConfig {
  try {
    return loadConfigFile(file ?? join(home, 'config.toml'));
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** Runs `body`, turning a definition's problems into bad usage (exit 2). */
function checked<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof AgentDefinitionError) throw new UsageError(error.message);
    throw error;
  }
}

export async function agentsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '-h' || sub === '--help') throw new HelpRequested('agents');
  if (sub === 'help') throw new HelpRequested(helpTopicAfter('agents', rest));
  switch (sub) {
    case 'list':
      return list(rest);
    case 'show':
      return show(rest);
    case 'new':
      return create(rest);
    case 'export':
      return exportDefinition(rest);
    default:
      throw new UsageError(
        sub === undefined
          ? 'agents needs a subcommand: list, show NAME, new NAME, export NAME'
          : `unknown agents subcommand "${sub}" (list, show, new, export)`,
      );
  }
}

function list(args: string[]): number {
  const { values } = parseCommandArgs('agents list', args, {
    config: { type: 'string', short: 'c' },
    json: { type: 'boolean', default: false },
  });
  const home = defaultHome();
  const config = loadConfig(values.config, home);
  const entries = listAgents(home, definitionContext(config));
  if (values.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return EXIT.finished;
  }
  const width = Math.max(...entries.map((e) => e.name.length), 4);
  for (const e of entries) {
    const version = e.version !== undefined ? `v${e.version}` : '-';
    const kind = e.source === 'builtin' ? 'built-in' : 'user';
    const about = e.error !== undefined ? `ERROR ${e.error.split('\n')[0]}` : e.description;
    process.stdout.write(
      `${e.name.padEnd(width)}  ${kind.padEnd(8)}  ${version.padEnd(4)}  ${about}\n`,
    );
  }
  return EXIT.finished;
}

function show(args: string[]): number {
  const { values, positionals } = parseCommandArgs('agents show', args, {
    config: { type: 'string', short: 'c' },
  });
  const ref = positionals[0];
  if (ref === undefined) throw new UsageError('agents show needs an agent: NAME[@VERSION] or FILE');
  const home = defaultHome();
  const config = loadConfig(values.config, home);
  const r = checked(() => resolveDefinition(ref, home, definitionContext(config)));
  const where = r.path ?? '(built-in)';
  process.stderr.write(
    `${r.data.name} v${r.version ?? '?'} (${r.source}, hash ${r.hash}) ${where}\n`,
  );
  process.stdout.write(r.text);
  return EXIT.finished;
}

function create(args: string[]): number {
  const { values, positionals } = parseCommandArgs('agents new', args, {
    from: { type: 'string' },
    force: { type: 'boolean', default: false },
    config: { type: 'string', short: 'c' },
  });
  const name = positionals[0];
  if (name === undefined) throw new UsageError('agents new needs a NAME');
  if (!AGENT_NAME_PATTERN.test(name))
    throw new UsageError(`"${name}" is not an agent name: 1-64 letters, digits, _ . -`);
  if (isAgentName(parseAgentRef(name).name) || name.includes('@'))
    throw new UsageError(`"${name}" is a built-in agent's name: choose another one`);
  const home = defaultHome();
  const config = loadConfig(values.config, home);
  const file = join(agentsDir(home), `${name}.toml`);
  if (existsSync(file) && !values.force)
    throw new UsageError(`${file} exists: edit it, or give --force to replace it`);
  const context = definitionContext(config);
  const text =
    values.from !== undefined
      ? definitionToToml({
          ...checked(() => resolveDefinition(values.from!, home, context)).data,
          name,
        })
      : starterDefinitionText(name);
  checked(() => loadDefinitionText(text, file, context));
  mkdirSync(agentsDir(home), { recursive: true });
  writeFileSync(file, text);
  const version = recordVersion(home, name, text);
  process.stdout.write(`${file}\n`);
  process.stderr.write(`workbench: ${name} v${version} written; run it with --agent ${name}\n`);
  return EXIT.finished;
}

function exportDefinition(args: string[]): number {
  const { values, positionals } = parseCommandArgs('agents export', args, {
    output: { type: 'string', short: 'o' },
    config: { type: 'string', short: 'c' },
  });
  const ref = positionals[0];
  if (ref === undefined) throw new UsageError('agents export needs an agent: NAME[@VERSION]');
  const home = defaultHome();
  const config = loadConfig(values.config, home);
  const r = checked(() => resolveDefinition(ref, home, definitionContext(config)));
  if (values.output !== undefined) {
    writeFileSync(values.output, r.text);
    process.stderr.write(`workbench: ${r.data.name} v${r.version ?? '?'} → ${values.output}\n`);
  } else process.stdout.write(r.text);
  return EXIT.finished;
}
