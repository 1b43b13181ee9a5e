import type { ReactNode } from 'react';
import { formatCount, headOf } from '../../../lib/format';

const LINES = 8;
const CHARS = 1200;
/** even expanded, a row stops here; the inspector shows everything */
const EXPANDED_CHARS = 20_000;

/** Long text shows its head in the row; "more" (or Enter) expands it in place. */
export function ClampedText(props: {
  text: string;
  isExpanded: boolean;
  onToggle: () => void;
  className?: string;
  /** how the shown part is drawn (markdown, numbered lines); plain text by default */
  render?: (shown: string) => ReactNode;
  /** lines of the text shown before "show more" (markdown source has blank lines) */
  lines?: number;
}) {
  const { text, isExpanded, onToggle } = props;
  const head = headOf(text, props.lines ?? LINES, CHARS);
  const shown = isExpanded ? text.slice(0, EXPANDED_CHARS) : head.text;
  const isCut = isExpanded ? text.length > EXPANDED_CHARS : head.isCut;
  return (
    <div className={props.className ?? 'msg-text'}>
      {props.render ? props.render(shown) : shown}
      {(head.isCut || isExpanded) && (
        <div className="clamp-actions">
          {isCut && (
            <span className="muted">
              {`… ${formatCount(text.length - shown.length)} more characters `}
            </span>
          )}
          {head.isCut && (
            <button
              type="button"
              className="link"
              onClick={(e) => {
                e.stopPropagation();
                onToggle();
              }}
            >
              {isExpanded ? 'show less' : 'show more'}
            </button>
          )}
          {isExpanded && isCut && <span className="muted"> (the inspector shows all of it)</span>}
        </div>
      )}
    </div>
  );
}
