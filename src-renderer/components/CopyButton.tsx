import { useState } from 'react';
import { TEST_IDS } from '../test-ids';

/** Copies `text` to the clipboard; says "copied" for a moment, or why it could not. */
export function CopyButton(props: { text: () => string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text());
      setState('copied');
    } catch {
      // A browser without clipboard permission (plain http, an iframe) refuses.
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1500);
  };
  return (
    <button
      type="button"
      className="copy-button"
      data-testid={TEST_IDS.copyButton}
      data-state={state}
      onClick={(e) => {
        e.stopPropagation();
        void copy();
      }}
    >
      {state === 'copied'
        ? 'copied'
        : state === 'failed'
          ? 'copy refused'
          : (props.label ?? 'copy')}
    </button>
  );
}
