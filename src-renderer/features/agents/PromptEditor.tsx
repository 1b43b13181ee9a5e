import { useRef } from 'react';
import { TEMPLATE_VARIABLES } from '@shared/domain/agent-definition';
import { estimatePromptTokens, promptParts } from './prompt-text';

/**
 * A large monospace editor for a prompt template: `{{variables}}` highlighted behind the
 * text (unknown names in the error colour), the token count below it, and the field's
 * problems. The highlight is a layer under a transparent textarea, scrolled with it, so
 * typing, selecting and undo stay the browser's own.
 */
export function PromptEditor({
  label,
  value,
  tokens,
  errors,
  isReadOnly,
  rows,
  testId,
  onChange,
}: {
  label: string;
  value: string;
  /** counted by the host; undefined until it answered for this text */
  tokens: number | undefined;
  errors: readonly string[];
  isReadOnly: boolean;
  rows: number;
  testId: string;
  onChange(value: string): void;
}) {
  const layer = useRef<HTMLPreElement>(null);
  const parts = promptParts(value);
  const count = tokens ?? estimatePromptTokens(value);
  return (
    <div className="prompt-editor" data-testid={testId}>
      <label>
        {label}
        <span className="muted prompt-tokens" data-testid={`${testId}-tokens`}>
          {tokens === undefined ? '≈' : ''}
          {count} token{count === 1 ? '' : 's'}
        </span>
      </label>
      <div className="prompt-box">
        <pre className="prompt-layer" ref={layer} aria-hidden="true">
          {parts.map((part, i) =>
            part.kind === 'text' ? (
              part.text
            ) : (
              <mark
                key={i}
                className={part.isKnown ? 'prompt-var' : 'prompt-var is-unknown'}
                data-testid={`${testId}-variable`}
                data-known={part.isKnown}
              >
                {part.text}
              </mark>
            ),
          )}
          {'\n'}
        </pre>
        <textarea
          className="prompt-input"
          value={value}
          rows={rows}
          readOnly={isReadOnly}
          spellCheck={false}
          data-testid={`${testId}-input`}
          aria-invalid={errors.length > 0}
          onChange={(e) => onChange(e.target.value)}
          onScroll={(e) => {
            if (layer.current) layer.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      <p className="muted prompt-variables">
        Variables:{' '}
        {Object.entries(TEMPLATE_VARIABLES).map(([name, meaning]) => (
          <code key={name} title={meaning}>{`{{${name}}} `}</code>
        ))}
      </p>
      {errors.map((message) => (
        <p key={message} className="field-error" role="alert">
          {message}
        </p>
      ))}
    </div>
  );
}
