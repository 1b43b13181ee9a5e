/**
 * What issue 17 added to the timeline's reducer: the exact request's extras on a step
 * (`llm.requested`), and a running tool's output as it streams (`tool.output`).
 */
import type { RunEventOf } from '@shared/events';
import type { LiveOutput, StepItem } from './types';

/** What `llm.requested` adds for the inspector's exact request (absent in older runs). */
export function requestExtras(
  e: RunEventOf<'llm.requested'>,
): Partial<NonNullable<StepItem['request']>> {
  return {
    ...(e.params ? { params: e.params } : {}),
    ...(e.toolChoice ? { toolChoice: e.toolChoice } : {}),
    ...(e.toolsHash !== undefined ? { toolsHash: e.toolsHash } : {}),
    ...(e.messages ? { messages: e.messages } : {}),
  };
}

/** A tool's live output with one more `tool.output` batch (same stream: one piece). */
export function withOutput(live: LiveOutput | undefined, e: RunEventOf<'tool.output'>): LiveOutput {
  const pieces = live ? [...live.pieces] : [];
  const last = pieces.at(-1);
  if (e.text) {
    if (last?.stream === e.stream)
      pieces[pieces.length - 1] = { ...last, text: last.text + e.text };
    else pieces.push({ stream: e.stream, text: e.text });
  }
  const omittedBytes =
    e.omittedBytes !== undefined
      ? { ...live?.omittedBytes, [e.stream]: e.omittedBytes }
      : live?.omittedBytes;
  return { pieces, ...(omittedBytes ? { omittedBytes } : {}) };
}
