/**
 * What importing an OpenManus file does to config.toml, before anything is written:
 * the new data, the secrets to store, and the report. A `config/config.toml` replaces
 * our `[llm]`, `[browser]` and `[sandbox]` and adds to `[agent]`; a `config/mcp.json`
 * adds its servers to `[mcp.servers]` (same names are replaced). The file's kind is told
 * by its content, so the UI's import takes either.
 */
import { ConfigError, parseTomlText } from './load';
import { convertOpenManusConfig, ImportRefused } from './openmanus-import';
import { convertMcpServersFile, isMcpServersFile } from './openmanus-mcp-import';
import { SECRET_REF_PREFIX } from './secrets';

type RawTable = Record<string, unknown>;

export interface ImportPlan {
  next: RawTable;
  secrets: { name: string; value: string }[];
  imported: string[];
  ignored: { path: string; reason: string }[];
}

function isTable(value: unknown): value is RawTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function planImport(content: string, source: string, current: RawTable): ImportPlan {
  const trimmed = content.trimStart();
  if (trimmed.startsWith('{') || source.toLowerCase().endsWith('.json')) {
    return planMcpJson(content, source, current);
  }
  return planConfigToml(parseTomlText(content, source), source, current);
}

function planMcpJson(content: string, source: string, current: RawTable): ImportPlan {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON: ${(error as Error).message}`, source);
  }
  if (!isMcpServersFile(data)) {
    throw new ConfigError(
      `${source}: not an MCP servers file: it needs an "mcpServers" object (as OpenManus's config/mcp.json has).`,
      source,
    );
  }
  const conversion = convertMcpServersFile(data);
  const mcp = isTable(current['mcp']) ? { ...current['mcp'] } : {};
  const servers = isTable(mcp['servers']) ? { ...mcp['servers'] } : {};
  Object.assign(servers, conversion.servers);
  mcp['servers'] = servers;
  return {
    next: { ...current, mcp },
    secrets: conversion.secrets,
    imported: conversion.imported,
    ignored: conversion.ignored,
  };
}

function planConfigToml(data: RawTable, source: string, current: RawTable): ImportPlan {
  let conversion;
  try {
    conversion = convertOpenManusConfig(data);
  } catch (error) {
    if (error instanceof ImportRefused)
      throw new ConfigError(`${source}: ${error.message}`, source);
    throw error;
  }
  const next: RawTable = { ...current };
  const secrets: ImportPlan['secrets'] = [];
  if (conversion.llm) {
    const llm = structuredClone(conversion.llm);
    for (const { table, value } of conversion.apiKeys) {
      const tablePath = table.split('.').slice(1);
      const target = tablePath.length === 0 ? llm : (llm[tablePath[0] as string] as RawTable);
      if (value.startsWith('env:')) target['api_key'] = value;
      else {
        target['api_key'] = `${SECRET_REF_PREFIX}${table}`;
        secrets.push({ name: table, value });
      }
    }
    next['llm'] = llm;
  }
  if (conversion.browser) next['browser'] = conversion.browser;
  if (conversion.sandbox) next['sandbox'] = conversion.sandbox;
  if (conversion.agent) next['agent'] = mergeAgent(current['agent'], conversion.agent);
  return { next, secrets, imported: conversion.imported, ignored: conversion.ignored };
}

/** Our own `[agent.NAME]` settings stay; the import adds to them. */
function mergeAgent(current: unknown, imported: RawTable): RawTable {
  const merged: RawTable = isTable(current) ? structuredClone(current) : {};
  for (const [key, value] of Object.entries(imported)) {
    merged[key] =
      isTable(value) && isTable(merged[key]) ? { ...(merged[key] as RawTable), ...value } : value;
  }
  return merged;
}
