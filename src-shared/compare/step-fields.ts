/**
 * The comparable contents of a step, as named text fields: what two aligned steps are
 * compared on, and what the diff shows field by field. Ids, timestamps, durations and
 * token counts are not fields: they differ between any two runs and are shown as deltas.
 */
import type { StepCall, StepDigest } from './types';

/** Field name -> text, in display order. */
export type StepFields = Map<string, string>;

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    out[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return out;
}

/** A call's arguments as text: raw text as it came, anything else as canonical JSON. */
export function argsText(args: unknown): string {
  return typeof args === 'string' ? args : canonicalJson(args);
}

/** ok / error / not finished, with the exit code and the error message */
export function statusText(call: StepCall): string {
  if (call.status === 'running') return 'not finished';
  const exit = call.exitCode !== undefined ? ` (exit ${call.exitCode})` : '';
  return `${call.status}${exit}${call.error ? `: ${call.error}` : ''}`;
}

export type CallPart = 'tool' | 'args' | 'status' | 'output';
export const callField = (i: number, part: CallPart) => `call ${i + 1} ${part}`;

export function stepFields(step: StepDigest): StepFields {
  const fields: StepFields = new Map();
  if (step.messages.length > 0) {
    fields.set('messages', step.messages.map((m) => `${m.role}: ${m.text}`).join('\n'));
  }
  if (step.reply) fields.set('reply', step.reply);
  step.calls.forEach((call, i) => {
    fields.set(callField(i, 'tool'), call.name);
    fields.set(callField(i, 'args'), argsText(call.args));
    fields.set(callField(i, 'status'), statusText(call));
    // the output is its own field (not joined to the status): JSON-parsed texts stay flat
    // strings, which hash and compare fast in long runs
    fields.set(callField(i, 'output'), call.output);
  });
  if (step.stuck.length > 0) fields.set('stuck', step.stuck.join(', '));
  if (step.outcome !== undefined) fields.set('outcome', step.outcome);
  return fields;
}

/**
 * The step's shape for alignment: kind, agent, the roles of its messages and the names
 * of the tools it called. Two steps with the same signature did "the same kind of thing".
 */
export function signatureOf(step: StepDigest): string {
  const roles = step.messages.map((m) => m.role).join(',');
  const tools = step.calls.map((c) => c.name).join(',');
  return `${step.kind}|${step.agent}|${roles}|${tools}`;
}

/** The fields whose texts differ (a field one side lacks counts as empty there). */
export function differingFields(a: StepFields, b: StepFields): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  const out: string[] = [];
  for (const name of names) if ((a.get(name) ?? '') !== (b.get(name) ?? '')) out.push(name);
  return out;
}

/** Share of fields that differ, 0..1 (used to grade how changed a step is). */
export function dissimilarity(a: StepFields, b: StepFields): number {
  const names = new Set([...a.keys(), ...b.keys()]);
  if (names.size === 0) return 0;
  return differingFields(a, b).length / names.size;
}
