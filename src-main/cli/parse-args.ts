import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error';

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function parseCommandArgs<T extends ParseArgsConfig['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
}

export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  return n;
}
