/**
 * A step's head: what the alignment, the row labels and the fork figures read of a step,
 * without its texts. Each comparable field (step-fields.ts) is kept as a hash of its text:
 * the alignment only asks whether two texts are equal, so two runs are aligned from their
 * heads alone, and the texts (replies, tool outputs: the bulk of a step) are read only for
 * the rows a person looks at.
 *
 * Heads are stored beside a finished run's history (src-main/runtime/runs/compare-digests.ts),
 * so comparing two long runs reads neither history.
 */
import type { AlignableStep, StepView } from './align';
import { signatureOf, stepFields } from './step-fields';
import type { StepCall, StepDigest, StepRef } from './types';

export interface StepHead extends AlignableStep, Omit<StepDigest, 'messages' | 'reply' | 'calls'> {
  /** the calls' names and statuses (the fork figures count calls and errors) */
  calls: { name: string; status: StepCall['status'] }[];
  /** step-fields.ts `signatureOf` */
  signature: string;
  /** each comparable field's name and the hash of its text (`hashText`), in display order */
  fields: [name: string, hash: string][];
}

/**
 * A hash of a text for equality: its length and two independent 32-bit hashes (FNV-1a and
 * a multiply-rotate mix, over UTF-16 code units). Two different texts of the same length
 * share all 64 bits with a chance of about 1 in 2^64 per pair: far below anything a
 * comparison of a few thousand distinct texts meets.
 */
export function hashText(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 = (h2 << 13) | (h2 >>> 19);
  }
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b);
  h2 ^= h2 >>> 13;
  return `${text.length.toString(36)}.${(h1 >>> 0).toString(36)}.${(h2 >>> 0).toString(36)}`;
}

export function headOf(step: StepDigest): StepHead {
  const { messages: _messages, reply: _reply, calls, ...rest } = step;
  const fields: [string, string][] = [];
  for (const [name, text] of stepFields(step)) fields.push([name, hashText(text)]);
  return {
    ...rest,
    calls: calls.map((c) => ({ name: c.name, status: c.status })),
    signature: signatureOf(step),
    fields,
  };
}

export const refOf = (step: StepRef): StepRef => ({
  kind: step.kind,
  step: step.step,
  agent: step.agent,
});

/**
 * The alignment's view of a head: the hashes stand for the texts (equal iff equal). The
 * stored pairs themselves, no Map per step (align-steps.ts makes one only for the rare
 * pair of steps whose field names differ).
 */
export const headView: StepView<StepHead> = (head) => ({
  fields: head.fields,
  signature: head.signature,
});
