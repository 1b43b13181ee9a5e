import type { ToolCall } from '@shared/domain/message';
import { TEST_IDS } from '../../test-ids';
import { formatTokens } from '../../store/timeline/tokens';
import { clip, formatArgs } from '../../lib/format';
import { CopyButton } from '../../components/CopyButton';

/** One message of the request: a one-line summary that opens to the whole message. */
export function RequestMessageRow(props: {
  index: number;
  role: string;
  content: string | null;
  toolCalls?: ToolCall[] | undefined;
  tokens?: number;
  isCurrent: boolean;
  onShow?: () => void;
}) {
  const { index, role, content, toolCalls, tokens, isCurrent, onShow } = props;
  const calls = toolCalls ?? [];
  const preview =
    (content ? clip(content.replace(/\s+/g, ' '), 160) : '') +
    calls.map((c) => ` → ${c.function.name}(…)`).join('');
  const whole = [content ?? '', ...calls.map((c) => `${c.function.name} ${c.function.arguments}`)]
    .filter(Boolean)
    .join('\n');
  return (
    <li
      data-testid={TEST_IDS.contextMessage}
      data-index={index}
      data-role={role}
      className={isCurrent ? 'is-current' : ''}
    >
      <details className="context-message">
        <summary className="context-item">
          <span className={`role-badge role-${role}`}>{role}</span>
          <span className="muted mono">#{index}</span>
          {tokens !== undefined && <span className="muted">≈{formatTokens(tokens)}</span>}
          <span className="context-text">{preview}</span>
        </summary>
        <div className="context-message-body">
          <div className="context-message-bar">
            <CopyButton text={() => whole} />
            {onShow && (
              <button
                type="button"
                className="link"
                data-testid={TEST_IDS.contextShow}
                onClick={onShow}
              >
                show in the timeline
              </button>
            )}
          </div>
          {content && <pre className="context-system-text">{content}</pre>}
          {calls.map((c) => (
            <div key={c.id} className="context-call">
              <div className="section-label">
                → {c.function.name} <span className="muted mono">{c.id}</span>
              </div>
              <pre className="code">{formatArgs(c.function.arguments)}</pre>
            </div>
          ))}
        </div>
      </details>
    </li>
  );
}

/** Messages recorded exactly as sent (an agent's step, the judge's call), one row each. */
export function RecordedMessageList(props: {
  messages: readonly { role: string; content: string | null; tool_calls?: ToolCall[] }[];
}) {
  return (
    <ol className="context-list">
      {props.messages.map((m, i) => (
        <RequestMessageRow
          key={i}
          index={i}
          role={m.role}
          content={m.content}
          toolCalls={m.tool_calls}
          isCurrent={false}
        />
      ))}
    </ol>
  );
}
