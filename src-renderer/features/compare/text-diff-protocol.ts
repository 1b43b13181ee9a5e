/** What the compare view's diff worker (text-diff-worker.ts) is asked and answers. */
import { diffText, type DiffMode, type DiffPart } from '@shared/compare/text-diff';

export interface DiffRequest {
  id: number;
  a: string;
  b: string;
  mode: DiffMode;
}

export interface DiffAnswer {
  id: number;
  parts: DiffPart[];
}

export function answerDiff(request: DiffRequest): DiffAnswer {
  return { id: request.id, parts: diffText(request.a, request.b, request.mode) };
}
