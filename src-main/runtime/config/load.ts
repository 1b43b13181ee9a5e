/**
 * Reads config.toml. A missing file means defaults; a file that does not parse or does
 * not validate throws ConfigError naming the file, the key path, the line and what is
 * wrong, so the user can go straight to it.
 */
import { parse as parseToml } from 'smol-toml';
import { CONFIG_AGENT_NAMES } from '@shared/domain/config-view';
import { FileReadError, readRegularFile } from '../util/read-regular-file';
import { configSchema, type WorkbenchConfig } from './schema';
import { findKeyLine } from './toml-document';

export interface ConfigIssueDetail {
  path: string;
  message: string;
  line?: number;
}

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly issues: ConfigIssueDetail[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses TOML text into plain data; syntax errors name the line and column. */
export function parseTomlText(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const e = error as Error & { line?: number; column?: number };
    const detail = e.message.split('\n')[0] ?? 'syntax error';
    const where =
      e.line !== undefined ? `:${e.line}${e.column !== undefined ? `:${e.column}` : ''}` : '';
    throw new ConfigError(`${file}${where}: not valid TOML: ${detail}`, file, [
      {
        path: '(file)',
        message: `not valid TOML: ${detail}`,
        ...(e.line !== undefined ? { line: e.line } : {}),
      },
    ]);
  }
}

/** Validates parsed TOML data; `text` is used to find the line of each problem. */
export function validateConfigData(raw: unknown, text: string, file: string): WorkbenchConfig {
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues: ConfigIssueDetail[] = [];
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String);
    // The [llm] section relays its profiles' unknown keys as a message (see schema.ts).
    const relayed = /^unknown key\(s\): (.+)$/.exec(issue.message)?.[1]?.split(', ');
    const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : relayed;
    if (unknownKeys) {
      // One issue per unknown key, each at its own line.
      const message =
        path.join('.') === 'agent'
          ? `unknown agent (the agents are ${CONFIG_AGENT_NAMES.join(', ')})`
          : 'unknown key';
      for (const key of unknownKeys) issues.push(located(text, [...path, key], message));
    } else {
      issues.push(located(text, path, issue.message));
    }
  }
  const summary = issues
    .map((i) => `${i.path}${i.line !== undefined ? ` (line ${i.line})` : ''}: ${i.message}`)
    .join('; ');
  throw new ConfigError(`${file}: invalid config: ${summary}`, file, issues);
}

function located(text: string, path: string[], message: string): ConfigIssueDetail {
  const line = path.length > 0 ? findKeyLine(text, path) : undefined;
  return { path: path.join('.') || '(root)', message, ...(line !== undefined ? { line } : {}) };
}

export function parseConfigText(text: string, file: string): WorkbenchConfig {
  return validateConfigData(parseTomlText(text, file), text, file);
}

/** config.toml is a page of settings; anything bigger is not one. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of a config file, '' when it does not exist. A FIFO, a device, a folder or
 * an oversized file is a ConfigError naming the file, never a hang or a stack trace.
 */
export function readConfigText(file: string): string {
  try {
    return readRegularFile(file, MAX_CONFIG_BYTES, 'The config file');
  } catch (error) {
    if (error instanceof FileReadError && error.code === 'ENOENT') return '';
    const message = (error as Error).message;
    throw new ConfigError(message, file, [{ path: '(file)', message }]);
  }
}

export function loadConfigFile(file: string): WorkbenchConfig {
  return parseConfigText(readConfigText(file), file);
}
