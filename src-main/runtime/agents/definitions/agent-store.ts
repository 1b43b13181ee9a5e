/**
 * Where agent definitions live: the built-in ones shipped with the app, the user's in
 * `WORKBENCH_HOME/agents/NAME.toml`, and any file given by path. Every saved change of a
 * definition is a version: `agents/.versions/NAME/N-HASH.toml` keeps the text of version N
 * (the counter) and its hash tells it apart, so `NAME@3` runs exactly what version 3 was.
 * A version is recorded when a definition is used (a run, `agents list`) or saved.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isAgentName, type AgentName } from '@shared/domain/agent';
import {
  parseAgentRef,
  type AgentDefinitionSource,
  type RecordedAgentDefinition,
} from '@shared/domain/agent-definition';
import { writeFileAtomic } from '../../config/atomic-write';
import { FileReadError, readRegularFile } from '../../util/read-regular-file';
import { builtinDefinitionText } from './builtin-definitions';
import {
  AgentDefinitionError,
  definitionHash,
  loadDefinitionText,
  type DefinitionContext,
  type LoadedDefinition,
} from './load-definition';
import { AGENT_NAME_PATTERN } from './definition-schema';
import { carrierAgent } from './tool-patterns';

/** A definition is a page of prompts; anything bigger is not one. */
export const MAX_DEFINITION_BYTES = 1024 * 1024;

export function agentsDir(home: string): string {
  return join(home, 'agents');
}

function versionsDir(home: string, name: string): string {
  return join(agentsDir(home), '.versions', name);
}

/** A definition ready to run: what it says, and which version of which file it is. */
export interface ResolvedDefinition extends LoadedDefinition {
  source: AgentDefinitionSource;
  path?: string;
  version?: number;
}

export function recordedDefinition(resolved: ResolvedDefinition): RecordedAgentDefinition {
  return {
    definition: resolved.data,
    hash: resolved.hash,
    ...(resolved.version !== undefined ? { version: resolved.version } : {}),
    source: resolved.source,
    ...(resolved.path !== undefined ? { path: resolved.path } : {}),
  };
}

function readDefinitionFile(file: string): string {
  try {
    return readRegularFile(file, MAX_DEFINITION_BYTES, 'The agent definition');
  } catch (error) {
    const message =
      error instanceof FileReadError && error.code === 'ENOENT'
        ? 'no such file (give the path of an agent definition, or the name of an agent: `workbench agents list`)'
        : (error as Error).message;
    throw new AgentDefinitionError(file, [{ path: '(file)', message }]);
  }
}

/**
 * The saved versions of `name`, in counter order. Each is `N-HASH.toml`, so listing them
 * reads no file (a run and `agents list` look a text's version up by its hash).
 */
export function listVersions(home: string, name: string): { version: number; hash: string }[] {
  const dir = versionsDir(home, name);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => /^(\d+)-([0-9a-f]{16})\.toml$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), hash: m[2]! }))
    .sort((a, b) => a.version - b.version);
}

function versionFile(home: string, name: string, version: number, hash: string): string {
  return join(versionsDir(home, name), `${version}-${hash}.toml`);
}

/** The version counter of this text of `name`, saving it as the next version if new. */
export function recordVersion(home: string, name: string, text: string): number {
  const hash = definitionHash(text);
  const versions = listVersions(home, name);
  const known = versions.find((v) => v.hash === hash);
  if (known) return known.version;
  const next = (versions.at(-1)?.version ?? 0) + 1;
  mkdirSync(versionsDir(home, name), { recursive: true });
  writeFileAtomic(versionFile(home, name, next, hash), text, 0o644);
  return next;
}

/** Whether `ref` names a file rather than an agent. */
export function isDefinitionPath(ref: string): boolean {
  return ref.endsWith('.toml') || ref.includes('/') || ref.includes('\\');
}

/**
 * The definition `ref` names: a file (`./mine.toml`), a user agent (`mine`, its newest
 * text, recorded as a version), a saved version (`mine@3`) or a built-in agent
 * (`manus`, `manus@1`). Throws AgentDefinitionError naming the file, line and fix.
 */
export function resolveDefinition(
  ref: string,
  home: string,
  context: DefinitionContext,
): ResolvedDefinition {
  if (isDefinitionPath(ref)) {
    const path = resolve(ref);
    const text = readDefinitionFile(path);
    const loaded = loadDefinitionText(text, path, context);
    if (isAgentName(loaded.data.name)) {
      throw new AgentDefinitionError(path, [
        {
          path: 'name',
          message: `"${loaded.data.name}" is a built-in agent's name: give your agent another name`,
        },
      ]);
    }
    const version = recordVersion(home, loaded.data.name, text);
    return { ...loaded, source: 'file', path, version };
  }
  const { name, version } = parseAgentRef(ref);
  if (isAgentName(name)) {
    if (version !== undefined && version !== 1) {
      throw new AgentDefinitionError(name, [
        { path: '(version)', message: `the built-in agent ${name} has one version: ${name}@1` },
      ]);
    }
    const loaded = loadDefinitionText(builtinDefinitionText(name), `(built-in) ${name}`, {
      mcpServers: context.mcpServers,
    });
    return { ...loaded, source: 'builtin', version: 1 };
  }
  if (!AGENT_NAME_PATTERN.test(name)) {
    throw new AgentDefinitionError(ref, [
      { path: '(name)', message: 'not an agent name or a path of a .toml file' },
    ]);
  }
  const path = join(agentsDir(home), `${name}.toml`);
  if (version !== undefined) {
    const versions = listVersions(home, name);
    const saved = versions.find((v) => v.version === version);
    if (!saved) {
      const known = versions.map((v) => `${name}@${v.version}`);
      throw new AgentDefinitionError(`${name}@${version}`, [
        {
          path: '(version)',
          message: `${name} has no version ${version} (versions: ${known.join(', ') || 'none yet'})`,
        },
      ]);
    }
    const file = versionFile(home, name, version, saved.hash);
    const loaded = loadDefinitionText(readDefinitionFile(file), file, context);
    return { ...loaded, source: 'home', path, version };
  }
  if (!existsSync(path)) {
    throw new AgentDefinitionError(path, [
      {
        path: '(file)',
        message: `there is no agent "${name}": the agents are listed by \`workbench agents list\`; create one with \`workbench agents new ${name}\``,
      },
    ]);
  }
  const text = readDefinitionFile(path);
  const loaded = loadDefinitionText(text, path, context);
  if (loaded.data.name !== name) {
    throw new AgentDefinitionError(path, [
      {
        path: 'name',
        message: `the file ${basename(path)} says name = "${loaded.data.name}": a file in the agents folder is named after its agent (rename the file or the agent)`,
      },
    ]);
  }
  return { ...loaded, source: 'home', path, version: recordVersion(home, name, text) };
}

/** One row of `agents list` / the Agents page. */
export interface AgentListEntry {
  name: string;
  source: AgentDefinitionSource;
  description: string;
  path?: string;
  version?: number;
  hash?: string;
  /** the built-in agent whose needs it shares (what a run's pre-flight checks) */
  carrier?: AgentName;
  /** the problem that keeps it from running */
  error?: string;
}

/** The built-in agents, then the user's (by name); broken files listed with their error. */
/**
 * What a long-lived host keeps between listings (the Agents page): each file's entry with
 * the stamp it was made for (the file's size and times, its versions folder's time, the
 * config's servers and profiles); a file whose stamp is unchanged is not read again.
 */
export type AgentListCache = Map<string, { stamp: string; entry: AgentListEntry }>;

function listStamp(path: string, versions: string, context: DefinitionContext): string {
  const file = statSync(path);
  const dir = existsSync(versions) ? statSync(versions).mtimeMs : 0;
  return JSON.stringify([file.size, file.mtimeMs, file.ctimeMs, dir, context]);
}

export function listAgents(
  home: string,
  context: DefinitionContext,
  cache?: AgentListCache,
): AgentListEntry[] {
  const entries: AgentListEntry[] = [];
  for (const name of ['manus', 'swe', 'browser', 'mcp', 'toolcall'] as const) {
    const r = resolveDefinition(name, home, context);
    entries.push({
      name,
      source: 'builtin',
      description: r.data.description,
      version: 1,
      hash: r.hash,
      carrier: name,
    });
  }
  const dir = agentsDir(home);
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.toml'))
        .sort()
    : [];
  for (const file of files) {
    const name = file.slice(0, -'.toml'.length);
    const path = join(dir, file);
    if (isAgentName(name)) {
      entries.push({
        name,
        source: 'home',
        description: '',
        path,
        error: `${name} is a built-in agent's name: rename the file`,
      });
      continue;
    }
    const stamp = cache ? listStamp(path, versionsDir(home, name), context) : '';
    const known = cache?.get(path);
    if (known && known.stamp === stamp) {
      entries.push(known.entry);
      continue;
    }
    const at = entries.length;
    try {
      const r = resolveDefinition(name, home, context);
      entries.push({
        name,
        source: 'home',
        description: r.data.description,
        path,
        ...(r.version !== undefined ? { version: r.version } : {}),
        hash: r.hash,
        carrier: carrierAgent(r.patterns),
      });
    } catch (error) {
      entries.push({
        name,
        source: 'home',
        description: '',
        path,
        error: (error as Error).message,
      });
    }
    // stamped after the listing: saving the file's first version changed its folder
    if (cache)
      cache.set(path, {
        stamp: listStamp(path, versionsDir(home, name), context),
        entry: entries[at]!,
      });
  }
  for (const path of cache?.keys() ?? []) {
    if (!files.includes(basename(path))) cache!.delete(path);
  }
  return entries;
}
