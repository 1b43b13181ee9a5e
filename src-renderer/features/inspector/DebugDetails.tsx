import type { ReactNode } from 'react';
import type { DebugItem } from '../../store/timeline/types';

function Before({ label, text }: { label: string; text: string | null }): ReactNode {
  return (
    <div className="detail-field">
      <div className="section-label">{label}</div>
      <pre className="code detail-text">{text ?? '(empty)'}</pre>
    </div>
  );
}

/** A debugger row in full: an edit's before and after, untruncated. */
export function DebugDetails({ item }: { item: DebugItem }) {
  const edit = item.edit;
  return (
    <>
      <p>{item.text}</p>
      {item.by && <p className="muted">by: {item.by}</p>}
      {edit?.kind === 'edit_call' && (
        <>
          <Before label="Arguments before" text={edit.before} />
          <Before label="Arguments after" text={edit.after} />
        </>
      )}
      {edit?.kind === 'edit_message' && (
        <>
          <Before label={`Message #${edit.index} before`} text={edit.before} />
          <Before label="After" text={edit.after} />
        </>
      )}
      {edit?.kind === 'skip_call' && <Before label="The model was told" text={edit.observation} />}
      {(edit?.kind === 'add_message' || edit?.kind === 'provide_reply') && (
        <Before label="Text" text={edit.content} />
      )}
    </>
  );
}
