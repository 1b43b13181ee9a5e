/**
 * The field-by-field view of two aligned steps, shared by the compare view and
 * `workbench runs diff`: which fields differ, each with its texts, how to diff them
 * (words for prose, lines for code and output) and, for tool arguments, argument by
 * argument.
 */
import { stepFields } from './step-fields';
import { diffArgs, type ArgDiff, type DiffMode } from './text-diff';
import type { StepDigest } from './types';

export interface FieldDiff {
  /** the field's name as in `AlignedRow.fields` (`reply`, `call 1 args`, ...) */
  name: string;
  /** for people: `reply`, `bash arguments`, `bash output` */
  label: string;
  isChanged: boolean;
  /** undefined when that side has no such field */
  a?: string;
  b?: string;
  mode: DiffMode;
  /** for `call N args`: the arguments one by one */
  args?: ArgDiff[];
}

const CALL_FIELD = /^call (\d+) (tool|args|status|output)$/;
const PART_LABEL = { tool: 'tool', args: 'arguments', status: 'status', output: 'output' } as const;

function labelOf(name: string, a: StepDigest | undefined, b: StepDigest | undefined): string {
  const match = CALL_FIELD.exec(name);
  if (!match) return name;
  const index = Number(match[1]) - 1;
  const tool = a?.calls[index]?.name ?? b?.calls[index]?.name ?? 'tool';
  const part = match[2] as keyof typeof PART_LABEL;
  const several = Math.max(a?.calls.length ?? 0, b?.calls.length ?? 0) > 1;
  return `${tool}${several ? ` #${index + 1}` : ''} ${PART_LABEL[part]}`;
}

function modeOf(name: string): DiffMode {
  return name.endsWith(' output') ? 'lines' : 'words';
}

/** Every field of the two steps (A's order, then fields only B has), changed or not. */
export function stepFieldDiffs(a: StepDigest | undefined, b: StepDigest | undefined): FieldDiff[] {
  const fa = a ? stepFields(a) : new Map<string, string>();
  const fb = b ? stepFields(b) : new Map<string, string>();
  const names = [...new Set([...fa.keys(), ...fb.keys()])];
  return names.map((name) => {
    const ta = fa.get(name);
    const tb = fb.get(name);
    const diff: FieldDiff = {
      name,
      label: labelOf(name, a, b),
      isChanged: (ta ?? '') !== (tb ?? ''),
      ...(ta !== undefined ? { a: ta } : {}),
      ...(tb !== undefined ? { b: tb } : {}),
      mode: modeOf(name),
    };
    const match = CALL_FIELD.exec(name);
    if (match?.[2] === 'args') {
      const index = Number(match[1]) - 1;
      diff.args = diffArgs(a?.calls[index]?.args, b?.calls[index]?.args);
    }
    return diff;
  });
}
