/**
 * How a tool call's arguments are best shown: code as code (python_execute's `code`,
 * bash's `command`), a file edit as a diff of the file (str_replace_editor), a new
 * file's text as code in its language; anything else as JSON. Pure.
 */
import { languageOf, languageOfPath } from '../../../components/content/highlight';

export type ArgsView =
  | { kind: 'code'; code: string; language: string | null; rest: [string, string][] }
  | { kind: 'diff'; before: string; after: string; path?: string; rest: [string, string][] }
  | { kind: 'json'; text: string };

function parsed(args: unknown): Record<string, unknown> | null {
  let value = args;
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch {
      return null;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The arguments other than the ones shown as code, as short `key: value` pairs. */
function restOf(args: Record<string, unknown>, shown: string[]): [string, string][] {
  return Object.entries(args)
    .filter(([k]) => !shown.includes(k))
    .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
}

export function argsView(tool: string, args: unknown): ArgsView {
  const obj = parsed(args);
  if (!obj)
    return { kind: 'json', text: typeof args === 'string' ? args : JSON.stringify(args, null, 2) };
  const path = typeof obj['path'] === 'string' ? obj['path'] : undefined;
  const str = (k: string) => (typeof obj[k] === 'string' ? (obj[k] as string) : undefined);
  if (str('old_str') !== undefined && str('new_str') !== undefined) {
    return {
      kind: 'diff',
      before: str('old_str')!,
      after: str('new_str')!,
      ...(path ? { path } : {}),
      rest: restOf(obj, ['old_str', 'new_str']),
    };
  }
  if (str('command') === 'insert' && str('new_str') !== undefined) {
    return {
      kind: 'diff',
      before: '',
      after: str('new_str')!,
      ...(path ? { path } : {}),
      rest: restOf(obj, ['new_str']),
    };
  }
  if (str('file_text') !== undefined) {
    return {
      kind: 'code',
      code: str('file_text')!,
      language: path ? languageOfPath(path) : null,
      rest: restOf(obj, ['file_text']),
    };
  }
  if (str('code') !== undefined) {
    return {
      kind: 'code',
      code: str('code')!,
      language: languageOf(str('language')) ?? 'python',
      rest: restOf(obj, ['code', 'language']),
    };
  }
  if (tool === 'bash' && str('command') !== undefined) {
    return {
      kind: 'code',
      code: str('command')!,
      language: 'bash',
      rest: restOf(obj, ['command']),
    };
  }
  return { kind: 'json', text: JSON.stringify(obj, null, 2) };
}

/** One line for a collapsed card: the code's first line rather than escaped JSON. */
export function argsLine(view: ArgsView): string | null {
  if (view.kind === 'code') return view.code.split('\n', 1)[0] ?? '';
  if (view.kind === 'diff')
    return `${view.path ?? 'edit'}: ${view.before.split('\n', 1)[0]} → ${view.after.split('\n', 1)[0]}`;
  return null;
}
