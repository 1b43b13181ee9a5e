/**
 * The fields of an aligned row side by side: messages, the reply, each tool call's
 * tool, arguments (one by one), status and output. Changed fields show their text
 * differences; unchanged ones are shown dimmed for context.
 */
import { memo, useEffect, useState } from 'react';
import type { FieldDiff } from '@shared/compare/step-diff';
import type { DiffMode, DiffPart } from '@shared/compare/text-diff';
import { TEST_IDS } from '../../test-ids';
import { DiffText } from './DiffText';
import { textDiffs } from './text-diffs';

/**
 * The text diff of a changed field, from the diff worker (text-diffs.ts): until it
 * answers, each side shows its text unmarked (`data-diff="pending"`).
 */
function useParts(a: string, b: string, mode: DiffMode, isChanged: boolean) {
  const key = `${mode}\u0000${a}\u0000${b}`;
  const [state, setState] = useState<{ key: string; parts: DiffPart[] | undefined }>(() => ({
    key,
    parts: isChanged ? textDiffs.peek(a, b, mode) : undefined,
  }));
  useEffect(() => {
    if (!isChanged) return undefined;
    let isCurrent = true;
    void textDiffs.get(a, b, mode).then((parts) => {
      if (isCurrent) setState({ key, parts });
    });
    return () => {
      isCurrent = false;
    };
  }, [key, a, b, mode, isChanged]);
  return state.key === key ? state.parts : textDiffs.peek(a, b, mode);
}

function Cells(props: { a?: string; b?: string; mode: DiffMode; isChanged: boolean }) {
  const { a, b, mode, isChanged } = props;
  const diffed = useParts(a ?? '', b ?? '', mode, isChanged);
  const side = (text: string | undefined, which: 'a' | 'b') => {
    if (text === undefined) return <span className="muted">—</span>;
    const parts: DiffPart[] = isChanged && diffed ? diffed : [{ text, kind: 'same' as const }];
    return <DiffText parts={parts} side={which} mode={mode} />;
  };
  return (
    <>
      <div className="cmp-cell side-a" data-diff={isChanged && !diffed ? 'pending' : undefined}>
        {side(a, 'a')}
      </div>
      <div className="cmp-cell side-b" data-diff={isChanged && !diffed ? 'pending' : undefined}>
        {side(b, 'b')}
      </div>
    </>
  );
}

/** Unchanged fields worth showing as context; an unchanged tool name or status is not. */
const isContext = (field: FieldDiff) => !/ (tool|status)$|^stuck$/.test(field.name);

export const FieldDiffs = memo(function FieldDiffs({ fields }: { fields: readonly FieldDiff[] }) {
  return (
    <div className="cmp-fields">
      {fields
        .filter((f) => f.isChanged || isContext(f))
        .map((field) => (
          <div
            key={field.name}
            className={`cmp-field${field.isChanged ? ' is-changed' : ''}`}
            data-testid={TEST_IDS.compareField}
            data-field={field.name}
            data-changed={field.isChanged}
          >
            <div className="cmp-field-label">{field.label}</div>
            {field.args ? (
              field.args.map((arg) => (
                <div
                  key={arg.key}
                  className={`cmp-arg${arg.isChanged ? ' is-changed' : ''}`}
                  data-testid={TEST_IDS.compareArg}
                  data-key={arg.key}
                  data-changed={arg.isChanged}
                >
                  {arg.key && <div className="cmp-arg-key mono">{arg.key}</div>}
                  <Cells a={arg.a} b={arg.b} mode={arg.mode} isChanged={arg.isChanged} />
                </div>
              ))
            ) : (
              <div className="cmp-pair">
                <Cells a={field.a} b={field.b} mode={field.mode} isChanged={field.isChanged} />
              </div>
            )}
          </div>
        ))}
    </div>
  );
});
