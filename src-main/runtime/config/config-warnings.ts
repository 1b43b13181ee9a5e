/**
 * Problems with a config that are not errors but that the user must hear about (issue 12
 * item 8): an API key written into a config.toml that other users of the machine can
 * read. The file is the user's own, so its permissions are not changed behind their
 * back (secrets.json, which the app owns, is narrowed to 0600); the warning says what to do.
 */
import { statSync } from 'node:fs';
import { SECRET_REF_PREFIX } from './secrets';
import type { WorkbenchConfig } from './schema';

/** Where the config holds a key in plain text (not `env:` or `secret:` references). */
export function inlineKeyPaths(config: WorkbenchConfig): string[] {
  const paths: string[] = [];
  const isInline = (key: string | undefined) =>
    key !== undefined &&
    key !== '' &&
    !key.startsWith('env:') &&
    !key.startsWith(SECRET_REF_PREFIX);
  if (isInline(config.llm.default.api_key)) paths.push('llm.api_key');
  for (const [name, profile] of Object.entries(config.llm.profiles)) {
    if (isInline(profile.api_key)) paths.push(`llm.${name}.api_key`);
  }
  return paths;
}

/** The warnings for `file` holding `config`; empty when there is nothing to say. */
export function configWarnings(file: string, config: WorkbenchConfig): string[] {
  if (process.platform === 'win32') return [];
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    return [];
  }
  const keys = inlineKeyPaths(config);
  if ((mode & 0o044) === 0 || keys.length === 0) return [];
  const octal = (mode & 0o777).toString(8).padStart(4, '0');
  return [
    `${file} can be read by other users of this machine (mode ${octal}) and holds an API key ` +
      `(${keys.join(', ')}). Run \`chmod 600 ${file}\`, or keep the key out of the file: ` +
      'api_key = "env:NAME" reads it from the environment, and a key saved from the settings ' +
      'goes to secrets.json (readable only by you).',
  ];
}
