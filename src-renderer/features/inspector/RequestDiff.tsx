import { useMemo } from 'react';
import { diffText, type DiffPart } from '@shared/compare/text-diff';
import { TEST_IDS } from '../../test-ids';

/** Unchanged runs longer than this many lines are folded to their first and last lines. */
const CONTEXT_LINES = 3;

/**
 * The request against the previous step's, line by line over their JSON bodies: what
 * memory gained, a changed system prompt, different tools or parameters.
 */
export function RequestDiff(props: { before: string; after: string; previousStep: number }) {
  const { before, after, previousStep } = props;
  const parts = useMemo(() => diffText(before, after, 'lines'), [before, after]);
  const added = countLines(parts, 'added');
  const removed = countLines(parts, 'removed');
  return (
    <div data-testid={TEST_IDS.requestDiff} data-previous-step={previousStep}>
      <p className="muted">
        Against the request of step {previousStep}: +{added} line{added === 1 ? '' : 's'}, −
        {removed} line{removed === 1 ? '' : 's'}
        {added + removed === 0 ? ' (the same request)' : ''}.
      </p>
      <pre className="code request-diff">
        {parts.map((part, i) => (
          <DiffPiece key={i} part={part} />
        ))}
      </pre>
    </div>
  );
}

function DiffPiece({ part }: { part: DiffPart }) {
  if (part.kind === 'added') return <span className="diff-added">{prefixed(part.text, '+')}</span>;
  if (part.kind === 'removed')
    return <span className="diff-removed">{prefixed(part.text, '−')}</span>;
  const lines = part.text.replace(/\n$/, '').split('\n');
  if (lines.length <= CONTEXT_LINES * 2 + 1) return <span>{prefixed(part.text, ' ')}</span>;
  const head = lines.slice(0, CONTEXT_LINES).join('\n');
  const tail = lines.slice(-CONTEXT_LINES).join('\n');
  const folded = lines.length - CONTEXT_LINES * 2;
  return (
    <span>
      {prefixed(`${head}\n`, ' ')}
      <span className="muted diff-fold">{`  … ${folded} unchanged lines …\n`}</span>
      {prefixed(`${tail}\n`, ' ')}
    </span>
  );
}

function prefixed(text: string, mark: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `${mark} ${line}\n`)
    .join('');
}

function countLines(parts: DiffPart[], kind: DiffPart['kind']): number {
  return parts
    .filter((p) => p.kind === kind)
    .reduce((n, p) => n + p.text.replace(/\n$/, '').split('\n').length, 0);
}
