/**
 * Reads config.toml. A missing file means defaults; a file that does not parse or does
 * not validate throws ConfigError naming the file, the key path and what to do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { configSchema, type WorkbenchConfig } from './schema';

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly issues: { path: string; message: string; line?: number }[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function parseConfigText(text: string, file: string): WorkbenchConfig {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    const detail = (error as Error).message.split('\n')[0];
    throw new ConfigError(`${file}: not valid TOML: ${detail}`, file);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(root)',
      message:
        issue.code === 'unrecognized_keys'
          ? `unknown key(s): ${issue.keys.join(', ')}`
          : issue.message,
    }));
    const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new ConfigError(`${file}: invalid config: ${summary}`, file, issues);
  }
  return parsed.data;
}

export function loadConfigFile(file: string): WorkbenchConfig {
  if (!existsSync(file)) return configSchema.parse({});
  return parseConfigText(readFileSync(file, 'utf8'), file);
}
