import { TEST_IDS } from '../../../test-ids';
import { argsSummary, clip, formatCallTime, formatCount, ordinal } from '../../../lib/format';
import { argsLine, argsView } from './tool-args-view';
import type { MessageItem, StreamItem } from '../../../store/timeline/types';
import { RowLink, RowShell } from './RowShell';
import { ClampedText } from './ClampedText';
import type { RowProps } from './row-props';
import { Markdown } from '../../../components/content/Markdown';
import { RowImage } from './RowImage';

const renderMarkdown = (text: string) => <Markdown text={text} />;
/** markdown source spends lines on blank lines and fences: a reply's head shows more of them */
const MARKDOWN_LINES = 14;

const DUPLICATE_WHAT = {
  content: 'the same content',
  tool_calls: 'the same tool calls',
  both: 'the same content and tool calls',
} as const;

export function MessageRow({ item, isSelected, isExpanded, actions }: RowProps<MessageItem>) {
  const dup = item.duplicate;
  const classes = [
    'row-message',
    `role-${item.role}`,
    dup ? 'is-duplicate' : '',
    item.repeatedLater > 0 ? 'is-repeated' : '',
    item.droppedAtSeq !== undefined ? 'is-dropped' : '',
  ].join(' ');
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.timelineMessage}
      className={classes}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{
        role: item.role,
        index: item.memoryIndex,
        duplicate: dup ? 'true' : undefined,
        'duplicate-of': dup ? dup.of.join(' ') : undefined,
        repeated: item.repeatedLater > 0 ? item.repeatedLater : undefined,
        'repeat-of': item.repeatOf,
        'reply-only': item.isReplyOnly ? 'true' : undefined,
      }}
    >
      <div className="msg-head">
        <span className={`role-badge role-${item.role}`}>{item.role}</span>
        {item.isReplyOnly ? (
          <span
            className="chip"
            title="The model's reply as it answered; the agent stored something else in memory"
          >
            reply
          </span>
        ) : (
          <span className="muted mono">{`#${item.memoryIndex}`}</span>
        )}
        {item.name && <span className="muted">{item.name}</span>}
        {item.response && <span className="muted">{responseLine(item.response)}</span>}
        {item.droppedAtSeq !== undefined && (
          <span
            className="chip chip-dropped"
            title="A later memory.truncated removed it from what the model receives"
          >
            out of context
          </span>
        )}
        {item.repeatedLater > 0 && (
          <span className="chip chip-dup" title="Later responses repeat this one">
            repeated {item.repeatedLater}× later
          </span>
        )}
      </div>
      {dup && (
        <div className="dup-banner" role="note">
          <strong>Duplicate</strong>
          {` — ${ordinal(dup.occurrence)} time with ${DUPLICATE_WHAT[dup.kind]}; repeats `}
          {dup.of.map((index, i) => (
            <RowLink
              key={index}
              testId={TEST_IDS.duplicateLink}
              data={{ 'target-index': index }}
              title={`Jump to message #${index}`}
              onClick={() => actions.jumpTo(dup.ofItems[i]!)}
            >
              {`#${index}`}
            </RowLink>
          ))}
        </div>
      )}
      {item.repeatOf !== undefined && !isExpanded ? (
        <p className="muted folded-prompt" data-testid={TEST_IDS.foldedPrompt}>
          Same prompt as{' '}
          <RowLink onClick={() => actions.jumpTo(item.repeatOf!)}>the first time</RowLink> (
          {firstLine(item.content ?? '')}) ·{' '}
          <RowLink onClick={() => actions.toggleExpanded(item.id)}>show</RowLink>
        </p>
      ) : item.content !== null && item.content !== '' ? (
        <ClampedText
          text={item.content}
          isExpanded={isExpanded}
          onToggle={() => actions.toggleExpanded(item.id)}
          {...(item.role === 'assistant'
            ? { className: 'msg-text is-markdown', render: renderMarkdown, lines: MARKDOWN_LINES }
            : {})}
        />
      ) : (
        !item.toolCalls && <p className="muted empty-content">(empty content)</p>
      )}
      {item.imageMimeType !== undefined && <RowImage item={item} />}
      {item.toolCalls && item.toolCalls.length > 0 && (
        <ul className="call-list">
          {item.toolCalls.map((call) => (
            <li key={call.id} className="mono">
              {`→ ${call.function.name}`}
              <span className="muted">{`(${callLine(call.function.name, call.function.arguments)})`}</span>
            </li>
          ))}
        </ul>
      )}
    </RowShell>
  );
}

export function StreamRow({ item, isSelected, actions }: RowProps<StreamItem>) {
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.timelineMessage}
      className={`row-message role-assistant${item.isHeld ? '' : ' is-streaming'}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{
        role: 'assistant',
        streaming: item.isHeld ? undefined : 'true',
        held: item.isHeld ? 'true' : undefined,
      }}
    >
      <div className="msg-head">
        <span className="role-badge role-assistant">assistant</span>
        <span className="muted">
          {item.isHeld ? 'held by the debugger: stored when the run resumes' : 'streaming…'}
        </span>
      </div>
      <p className="msg-text">
        {item.text}
        {!item.isHeld && <span className="caret" aria-hidden="true" />}
      </p>
    </RowShell>
  );
}

/**
 * The reply's model, tokens, time and finish reason as one string: one text node, not
 * nine (each JSX text part is a node of its own, made and dropped per row on a scroll).
 */
function responseLine(response: NonNullable<MessageItem['response']>): string {
  return `${response.model} · ${formatCount(response.usage.prompt)} in / ${formatCount(response.usage.completion)} out · ${formatCallTime(response.durationMs, response.waitedMs)} · ${response.finishReason}`;
}

/** A call in one line: its code's first line when it carries code, else its JSON. */
function callLine(name: string, args: string): string {
  const line = argsLine(argsView(name, args));
  return line !== null ? clip(line, 100) : argsSummary(args, 100);
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
