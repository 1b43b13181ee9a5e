/**
 * One side of a text difference: A shows what is common plus what B no longer has
 * (struck out), B what is common plus what is new (highlighted). Prose wraps; code and
 * output keep their lines.
 */
import { memo } from 'react';
import type { DiffMode, DiffPart } from '@shared/compare/text-diff';

export const DiffText = memo(function DiffText(props: {
  parts: readonly DiffPart[];
  side: 'a' | 'b';
  mode: DiffMode;
}) {
  const { parts, side, mode } = props;
  const hidden = side === 'a' ? 'added' : 'removed';
  const children = parts.map((part, i) => {
    if (part.kind === hidden) return null;
    if (part.kind === 'same') return <span key={i}>{part.text}</span>;
    return part.kind === 'removed' ? (
      <del key={i} className="diff-removed">
        {part.text}
      </del>
    ) : (
      <ins key={i} className="diff-added">
        {part.text}
      </ins>
    );
  });
  return mode === 'lines' ? (
    <pre className="diff-text diff-lines">{children}</pre>
  ) : (
    <div className="diff-text diff-words">{children}</div>
  );
});
