/**
 * OpenManus's `run_mcp.py --connection stdio|sse --server-url URL` for `workbench run
 * --agent mcp`: which MCP server the mcp agent uses for this run, without editing
 * config.toml.
 *
 *   --server-url URL          an SSE or streamable HTTP server (a URL ending in /sse is SSE,
 *                             other URLs streamable HTTP; --connection sse|http says so)
 *   --server-command "CMD"    a stdio server, started with this command line
 *   --connection stdio|sse|http
 *                             alone: the configured [mcp.servers] entry of that type; with
 *                             sse and none configured, run_mcp.py's default URL
 *                             http://127.0.0.1:8000/sse
 */
import type { McpServerSettings, WorkbenchConfig } from '../runtime/config/schema';
import { UsageError } from './usage-error';

export const CONNECTIONS = ['stdio', 'sse', 'http'] as const;
type Connection = (typeof CONNECTIONS)[number];

/** run_mcp.py's --server-url default */
export const OPENMANUS_DEFAULT_SSE_URL = 'http://127.0.0.1:8000/sse';
/** the name of a server given on the command line */
export const CLI_SERVER_NAME = 'cli';

export interface McpServerFlags {
  agent: string;
  connection?: string | undefined;
  serverUrl?: string | undefined;
  serverCommand?: string | undefined;
}

export type ConfigOverlay = (config: WorkbenchConfig) => WorkbenchConfig;

/** The config change the flags ask for, or undefined when none was given. */
export function mcpServerOverlay(flags: McpServerFlags): ConfigOverlay | undefined {
  const { connection, serverUrl, serverCommand } = flags;
  if (connection === undefined && serverUrl === undefined && serverCommand === undefined) {
    return undefined;
  }
  if (flags.agent !== 'mcp') {
    throw new UsageError('--connection, --server-url and --server-command are for --agent mcp');
  }
  if (connection !== undefined && !(CONNECTIONS as readonly string[]).includes(connection)) {
    throw new UsageError(`--connection must be stdio, sse or http, got "${connection}"`);
  }
  const type = connection as Connection | undefined;
  if (serverUrl !== undefined && serverCommand !== undefined) {
    throw new UsageError('give --server-url or --server-command, not both');
  }
  if (serverUrl !== undefined) {
    if (type === 'stdio') {
      throw new UsageError(
        '--connection stdio starts a server: use --server-command, not --server-url',
      );
    }
    return useServer({
      type: type ?? urlType(serverUrl),
      url: checkUrl(serverUrl),
      givenBy: 'that the server is running and the --server-url given on the command line',
    });
  }
  if (serverCommand !== undefined) {
    if (type !== undefined && type !== 'stdio') {
      throw new UsageError(`--connection ${type} connects to a URL: use --server-url`);
    }
    const [command, ...args] = splitCommandLine(serverCommand);
    if (!command) throw new UsageError('--server-command is empty');
    return useServer({
      type: 'stdio',
      command,
      args,
      givenBy: 'the --server-command given on the command line',
    });
  }
  return (config) => chooseByType(config, type!);
}

function useServer(
  server: Omit<McpServerSettings, 'args' | 'env' | 'timeout'> & Partial<McpServerSettings>,
): ConfigOverlay {
  const settings = {
    args: [],
    env: {},
    timeout: 60,
    sampling: true,
    roots: true,
    log_level: 'info' as const,
    headers: {},
    ...server,
  };
  return (config) => ({
    ...config,
    mcp: {
      ...config.mcp,
      servers: { ...config.mcp.servers, [CLI_SERVER_NAME]: settings },
      agent_server: CLI_SERVER_NAME,
    },
  });
}

function chooseByType(config: WorkbenchConfig, type: Connection): WorkbenchConfig {
  const names = Object.entries(config.mcp.servers)
    .filter(([, s]) => s.type === type)
    .map(([name]) => name);
  if (names.length === 1) return { ...config, mcp: { ...config.mcp, agent_server: names[0]! } };
  if (names.length === 0 && type === 'sse') {
    return useServer({
      type: 'sse',
      url: OPENMANUS_DEFAULT_SSE_URL,
      givenBy: `that an MCP server runs at ${OPENMANUS_DEFAULT_SSE_URL} (the default of --connection sse, as run_mcp.py's), or give its address with --server-url`,
    })(config);
  }
  if (names.length === 0) {
    throw new UsageError(
      `no [mcp.servers] entry of type "${type}" in config.toml: add one, or give ${type === 'stdio' ? '--server-command' : '--server-url'}`,
    );
  }
  throw new UsageError(
    `several ${type} MCP servers are configured (${names.join(', ')}): set [mcp] agent_server in config.toml, or give ${type === 'stdio' ? '--server-command' : '--server-url'}`,
  );
}

function urlType(url: string): Connection {
  return /\/sse\/?(\?.*)?$/i.test(url) ? 'sse' : 'http';
}

function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--server-url must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--server-url must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

/** Splits a command line on spaces, honouring '...' and "..." quoting and backslash escapes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw new UsageError(`--server-command has an unclosed ${quote} quote`);
  if (inWord) words.push(current);
  return words;
}
