/**
 * The fields of an aligned row side by side: messages, the reply, each tool call's
 * tool, arguments (one by one), status and output. Changed fields show their text
 * differences; unchanged ones are shown dimmed for context.
 */
import { memo, useMemo } from 'react';
import type { FieldDiff } from '@shared/compare/step-diff';
import { diffText, type DiffMode } from '@shared/compare/text-diff';
import { TEST_IDS } from '../../test-ids';
import { DiffText } from './DiffText';

function Cells(props: { a?: string; b?: string; mode: DiffMode; isChanged: boolean }) {
  const { a, b, mode, isChanged } = props;
  const parts = useMemo(
    () =>
      isChanged ? diffText(a ?? '', b ?? '', mode) : [{ text: a ?? '', kind: 'same' as const }],
    [a, b, mode, isChanged],
  );
  return (
    <>
      <div className="cmp-cell side-a">
        {a === undefined ? (
          <span className="muted">—</span>
        ) : (
          <DiffText parts={parts} side="a" mode={mode} />
        )}
      </div>
      <div className="cmp-cell side-b">
        {b === undefined ? (
          <span className="muted">—</span>
        ) : (
          <DiffText parts={parts} side="b" mode={mode} />
        )}
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
