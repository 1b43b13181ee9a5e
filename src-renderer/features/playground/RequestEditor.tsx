/**
 * The playground's request editor: the parameters, each message, the tools and the whole
 * body as raw JSON. All of them edit one body (playground-draft.ts), which is exactly
 * what Send sends.
 */
import { useState } from 'react';
import type { PlaygroundProfile } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import {
  isError,
  messagesOf,
  parseNumberField,
  parseRawBody,
  withAddedMessage,
  withMessageContent,
  withMessageRole,
  withoutMessage,
  withParam,
  withToolsJson,
  type Body,
} from './playground-draft';

type Tab = 'messages' | 'tools' | 'raw';

export function RequestEditor(props: {
  body: Body;
  onChange(body: Body): void;
  profile: string;
  profiles: readonly PlaygroundProfile[];
  onProfile(name: string): void;
  samples: number;
  onSamples(n: number): void;
  /** an unparsable field or raw text: Send waits for it */
  onProblem(problem: string | null): void;
}) {
  const { body, onChange } = props;
  const [tab, setTab] = useState<Tab>('messages');
  const hasTools = Array.isArray(body['tools']);
  return (
    <section className="playground-editor" aria-label="Request">
      <div className="playground-params">
        <label>
          profile{' '}
          <select
            data-testid={TEST_IDS.playgroundProfile}
            value={props.profile}
            onChange={(e) => props.onProfile(e.target.value)}
          >
            {props.profiles.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name === 'default' ? '[llm]' : p.name} ({p.model})
              </option>
            ))}
          </select>
        </label>
        <label>
          model{' '}
          <input
            className="mono"
            data-testid={TEST_IDS.playgroundParam}
            data-param="model"
            value={typeof body['model'] === 'string' ? body['model'] : ''}
            onChange={(e) => onChange(withParam(body, 'model', e.target.value))}
          />
        </label>
        {(['temperature', 'max_tokens', 'max_completion_tokens', 'top_p'] as const).map((key) => (
          <NumberParam
            key={key}
            name={key}
            body={body}
            onChange={onChange}
            onProblem={props.onProblem}
          />
        ))}
        {hasTools && (
          <label>
            tool_choice{' '}
            <select
              data-testid={TEST_IDS.playgroundParam}
              data-param="tool_choice"
              value={typeof body['tool_choice'] === 'string' ? body['tool_choice'] : 'auto'}
              onChange={(e) => onChange(withParam(body, 'tool_choice', e.target.value))}
            >
              <option value="auto">auto</option>
              <option value="required">required</option>
              <option value="none">none</option>
            </select>
          </label>
        )}
        <label title="Each sample is its own request with this body, sent at the same time">
          samples{' '}
          <input
            type="number"
            min={1}
            max={10}
            data-testid={TEST_IDS.playgroundSamples}
            value={props.samples}
            onChange={(e) =>
              props.onSamples(Math.min(10, Math.max(1, Number(e.target.value) || 1)))
            }
          />
        </label>
      </div>
      <div className="request-tabs" role="tablist">
        {(['messages', 'tools', 'raw'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            data-testid={TEST_IDS.playgroundTab}
            data-tab={t}
            onClick={() => setTab(t)}
          >
            {t === 'messages'
              ? `Messages (${messagesOf(body).length})`
              : t === 'tools'
                ? `Tools (${hasTools ? (body['tools'] as unknown[]).length : 0})`
                : 'Raw JSON'}
          </button>
        ))}
      </div>
      {tab === 'messages' && <MessagesEditor body={body} onChange={onChange} />}
      {tab === 'tools' && (
        <JsonField
          key="tools"
          testId={TEST_IDS.playgroundTools}
          value={hasTools ? body['tools'] : []}
          apply={(text) => withToolsJson(body, text)}
          onChange={onChange}
          onProblem={props.onProblem}
          hint="The tools offered, as OpenAI function declarations ([] offers none)"
        />
      )}
      {tab === 'raw' && (
        <JsonField
          key="raw"
          testId={TEST_IDS.playgroundRaw}
          value={body}
          apply={parseRawBody}
          onChange={onChange}
          onProblem={props.onProblem}
          hint="The body sent, exactly (the host adds only stream and stream_options)"
        />
      )}
    </section>
  );
}

function NumberParam(props: {
  name: string;
  body: Body;
  onChange(body: Body): void;
  onProblem(problem: string | null): void;
}) {
  const current = props.body[props.name];
  const [text, setText] = useState(typeof current === 'number' ? String(current) : '');
  const [error, setError] = useState<string | null>(null);
  // the raw view may have changed the value: show the body's, unless the text means it
  const typed = parseNumberField(text);
  const shown =
    error !== null || ('value' in typed && typed.value === current)
      ? text
      : typeof current === 'number'
        ? String(current)
        : '';
  return (
    <label>
      {props.name}{' '}
      <input
        className="mono playground-number"
        data-testid={TEST_IDS.playgroundParam}
        data-param={props.name}
        placeholder="not sent"
        value={shown}
        aria-invalid={error !== null}
        title={error ?? undefined}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseNumberField(e.target.value);
          if ('error' in parsed) {
            setError(parsed.error);
            props.onProblem(`${props.name}: ${parsed.error}`);
            return;
          }
          setError(null);
          props.onProblem(null);
          props.onChange(withParam(props.body, props.name, parsed.value));
        }}
      />
    </label>
  );
}

function MessagesEditor(props: { body: Body; onChange(body: Body): void }) {
  const { body, onChange } = props;
  const messages = messagesOf(body);
  return (
    <ol className="playground-messages">
      {messages.map((m, i) => {
        const content = m['content'];
        const { role: _r, content: _c, ...rest } = m;
        return (
          <li key={i} className="playground-message" data-testid={TEST_IDS.playgroundMessage}>
            <div className="playground-message-bar">
              <select
                value={String(m['role'])}
                aria-label={`role of message ${i + 1}`}
                onChange={(e) => onChange(withMessageRole(body, i, e.target.value))}
              >
                {['system', 'user', 'assistant', 'tool'].map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              {Object.keys(rest).length > 0 && (
                <span className="muted mono playground-message-extra">
                  {Object.keys(rest).join(', ')} kept (edit in Raw JSON)
                </span>
              )}
              <button
                type="button"
                className="link"
                onClick={() => onChange(withoutMessage(body, i))}
              >
                remove
              </button>
            </div>
            {typeof content === 'string' || content === null ? (
              <textarea
                className="mono"
                data-testid={TEST_IDS.playgroundMessageText}
                rows={Math.min(12, Math.max(2, (content ?? '').split('\n').length))}
                value={content ?? ''}
                onChange={(e) => onChange(withMessageContent(body, i, e.target.value))}
              />
            ) : (
              <pre className="code">{JSON.stringify(content, null, 2)}</pre>
            )}
          </li>
        );
      })}
      <li className="playground-add">
        {(['user', 'assistant', 'system'] as const).map((role) => (
          <button
            key={role}
            type="button"
            className="link"
            onClick={() => onChange(withAddedMessage(body, role))}
          >
            + {role} message
          </button>
        ))}
      </li>
    </ol>
  );
}

/** A JSON text applied on every valid edit; an invalid one is shown and held back. */
function JsonField(props: {
  testId: string;
  value: unknown;
  apply(text: string): Body | { error: string };
  onChange(body: Body): void;
  onProblem(problem: string | null): void;
  hint: string;
}) {
  const [text, setText] = useState(() => JSON.stringify(props.value, null, 2));
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="playground-json">
      <p className="muted">{props.hint}</p>
      <textarea
        className="mono"
        data-testid={props.testId}
        spellCheck={false}
        rows={24}
        value={text}
        aria-invalid={error !== null}
        onChange={(e) => {
          setText(e.target.value);
          const applied = props.apply(e.target.value);
          if (isError(applied)) {
            setError(applied.error);
            props.onProblem(applied.error);
          } else {
            setError(null);
            props.onProblem(null);
            props.onChange(applied);
          }
        }}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
