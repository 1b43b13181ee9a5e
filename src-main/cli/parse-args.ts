import { parseArgs, type ParseArgsConfig } from 'node:util';
import { asksForHelp, type HelpTopic } from './usage';
import { HelpRequested, UsageError } from './usage-error';

/**
 * node:util parseArgs, with `-h` / `--help` (the help of `topic`, on every command) and
 * its errors turned into one-line usage errors that point at that help.
 */
export function parseCommandArgs<T extends ParseArgsConfig['options']>(
  topic: HelpTopic,
  args: string[],
  options: T,
) {
  // Looked for before parsing, so `run --bogus --help` gets the help, not a complaint.
  // A value can never be "--help": parseArgs refuses `--message --help` as ambiguous.
  if (asksForHelp(args)) throw new HelpRequested(topic);
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(argumentError(error, topic));
  }
}

/**
 * Node's own wording ("Unknown option '-x'. To specify a positional argument starting
 * with a '-', place it at the end of the command after '--' ...") is about its parser,
 * not this command: say which command and where its options are listed.
 */
function argumentError(error: unknown, topic: HelpTopic): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) {
    return `unknown option ${unknown[1]} for workbench ${topic} (see: workbench ${topic} --help; a task that starts with "-" goes after --)`;
  }
  return message.split('\n')[0] ?? 'bad arguments';
}

export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  return n;
}
