/**
 * The replies side by side: the one the run recorded, then each sample as it streams and,
 * once it ended, its line diff against the recorded reply; above them, how many of the
 * samples differ (the variance at a glance).
 */
import { useMemo } from 'react';
import type { PlaygroundReply, PlaygroundSample } from '@shared/ipc';
import { diffText, type DiffPart } from '@shared/compare/text-diff';
import { TEST_IDS } from '../../test-ids';
import { distinctReplies, replyText } from './playground-draft';

/** A sample while it streams (`text`) and once it ended (`done`). */
export interface SampleView {
  text: string;
  done?: PlaygroundSample;
}

export function PlaygroundReplies(props: {
  recorded: PlaygroundReply | null;
  samples: readonly SampleView[];
}) {
  const { recorded, samples } = props;
  const finished = samples.flatMap((s) => (s.done && !s.done.error ? [s.done] : []));
  const recordedText = recorded ? replyText(recorded) : '';
  return (
    <section className="playground-replies" aria-label="Replies">
      {finished.length > 1 && finished.length === samples.length && (
        <p className="muted" data-testid={TEST_IDS.playgroundVariance}>
          {distinctReplies(finished)} different repl{distinctReplies(finished) === 1 ? 'y' : 'ies'}{' '}
          in {finished.length} samples;{' '}
          {finished.filter((s) => replyText(s) === recordedText).length} equal to the recorded one.
        </p>
      )}
      <div className="playground-columns">
        <article className="playground-reply" data-testid={TEST_IDS.playgroundRecorded}>
          <h3>Recorded reply</h3>
          {recorded ? (
            <>
              <pre className="code playground-reply-text">{recordedText}</pre>
              <ReplyFigures reply={recorded} />
            </>
          ) : (
            <p className="muted">The run got no reply to this call.</p>
          )}
        </article>
        {samples.map((sample, index) => (
          <SampleColumn key={index} index={index} sample={sample} recordedText={recordedText} />
        ))}
      </div>
    </section>
  );
}

function SampleColumn(props: { index: number; sample: SampleView; recordedText: string }) {
  const { index, sample, recordedText } = props;
  const done = sample.done;
  const text = done && !done.error ? replyText(done) : sample.text;
  const parts = useMemo(
    () => (done && !done.error ? diffText(recordedText, text, 'lines') : []),
    [done, recordedText, text],
  );
  const isSame = parts.every((p) => p.kind === 'same');
  return (
    <article
      className="playground-reply"
      data-testid={TEST_IDS.playgroundSample}
      data-index={index}
      data-state={done ? (done.error ? 'error' : 'done') : 'streaming'}
    >
      <h3>
        Sample {index + 1}
        {!done && <span className="muted"> streaming…</span>}
      </h3>
      {done?.error ? (
        <p className="field-error" role="alert">
          {done.error}
        </p>
      ) : (
        <pre className="code playground-reply-text" data-testid={TEST_IDS.playgroundSampleText}>
          {text}
        </pre>
      )}
      {done && !done.error && (
        <>
          <ReplyFigures reply={done} />
          <details className="playground-diff" data-testid={TEST_IDS.playgroundDiff} open>
            <summary>
              {recordedText === ''
                ? 'No recorded reply to compare'
                : isSame
                  ? 'Same as the recorded reply'
                  : 'Diff against the recorded reply'}
            </summary>
            {!isSame && recordedText !== '' && (
              <pre className="code">
                {parts.map((part, i) => (
                  <DiffPiece key={i} part={part} />
                ))}
              </pre>
            )}
          </details>
        </>
      )}
    </article>
  );
}

function ReplyFigures({ reply }: { reply: Partial<PlaygroundReply> }) {
  return (
    <p className="muted playground-figures">
      {reply.model ? `${reply.model} · ` : ''}
      {reply.usage ? `${reply.usage.prompt} in / ${reply.usage.completion} out tokens · ` : ''}
      {reply.durationMs !== undefined ? `${(reply.durationMs / 1000).toFixed(1)} s` : ''}
    </p>
  );
}

function DiffPiece({ part }: { part: DiffPart }) {
  const mark = part.kind === 'added' ? '+' : part.kind === 'removed' ? '−' : ' ';
  const text = part.text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `${mark} ${line}\n`)
    .join('');
  if (part.kind === 'added') return <span className="diff-added">{text}</span>;
  if (part.kind === 'removed') return <span className="diff-removed">{text}</span>;
  return <span>{text}</span>;
}
