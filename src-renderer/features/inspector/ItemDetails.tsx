import type { ReactNode } from 'react';
import type { TimelineItem } from '../../store/timeline/types';
import {
  formatArgs,
  formatCallTime,
  formatDuration,
  formatTime,
  formatUsage,
} from '../../lib/format';
import { DebugDetails } from './DebugDetails';
import { ImageDetails } from './ImageDetails';
import { LiveOutputPanel } from '../../components/LiveOutput';
import { AgentDefinitionView } from './AgentDefinitionView';
import { ScoreDetails } from './ScoreDetails';

function Field(props: { label: string; children: ReactNode }) {
  return (
    <div className="detail-field">
      <div className="section-label">{props.label}</div>
      {props.children}
    </div>
  );
}

function Text({ text }: { text: string }) {
  return <pre className="code detail-text">{text}</pre>;
}

/** Everything about one row, untruncated. */
export function ItemDetails({ item }: { item: TimelineItem }) {
  return (
    <section className="item-details" aria-label="Selected item">
      <h3>{title(item)}</h3>
      <p className="muted">
        {formatTime(item.ts)} · event #{item.id}
        {item.step > 0 ? ` · step ${item.step}` : ''}
        {item.agent ? ` · ${item.agent}` : ''}
      </p>
      {body(item)}
    </section>
  );
}

function title(item: TimelineItem): string {
  switch (item.kind) {
    case 'message':
      return `${item.role} message #${item.memoryIndex}`;
    case 'tool':
      return `Tool call ${item.name}`;
    case 'step':
      return `Step ${item.step} of ${item.maxSteps}`;
    case 'stream':
      return 'Streaming response';
    case 'stuck':
      return 'Stuck detected';
    case 'marker':
      return `${item.marker} marker`;
    case 'run':
      return 'Run started';
    case 'human':
      return 'Question to you';
    case 'finished':
      return `Run ${item.outcome}`;
    case 'debug':
      return `Debugger: ${item.action}`;
    case 'user':
      return 'Your command (terminal)';
    case 'score':
      return `Score ${item.scorer} (${item.scorerKind})`;
  }
}

function body(item: TimelineItem): ReactNode {
  switch (item.kind) {
    case 'message':
      return (
        <>
          <Field label="Content">
            <Text text={item.content ?? '(none)'} />
          </Field>
          {item.imageMimeType !== undefined && (
            <Field label="Image">
              <ImageDetails item={item} />
            </Field>
          )}
          {item.toolCalls?.map((call) => (
            <Field key={call.id} label={`Tool call ${call.function.name} (${call.id})`}>
              <Text text={formatArgs(call.function.arguments)} />
            </Field>
          ))}
          {item.response && (
            <Field label="Response">
              <p>
                {item.response.model} · {formatUsage(item.response.usage)} ·{' '}
                {formatCallTime(item.response.durationMs, item.response.waitedMs)} · finish:{' '}
                {item.response.finishReason}
              </p>
            </Field>
          )}
          {item.duplicate && (
            <Field label="Duplicate">
              <p>
                {item.duplicate.kind.replace('_', ' ')} repeats #{item.duplicate.of.join(', #')} (
                {item.duplicate.occurrence} occurrences so far)
              </p>
            </Field>
          )}
        </>
      );
    case 'tool':
      return (
        <>
          <Field label="Status">
            <p>
              {item.status}
              {item.exitCode !== undefined ? ` · exit code ${item.exitCode}` : ''}
              {item.durationMs !== undefined ? ` · ${formatDuration(item.durationMs)}` : ''} · id{' '}
              {item.toolCallId}
            </p>
          </Field>
          <Field label="Arguments">
            <Text text={formatArgs(item.args)} />
          </Field>
          {item.live && (
            <Field label={item.status === 'running' ? 'Output (live)' : 'Output as it streamed'}>
              <LiveOutputPanel live={item.live} isRunning={item.status === 'running'} />
            </Field>
          )}
          {item.error && (
            <Field label="Error">
              <Text text={item.error} />
            </Field>
          )}
          {item.output !== undefined && (
            <Field label="Result">
              <Text text={item.output || '(empty)'} />
            </Field>
          )}
          {item.observation !== undefined && (
            <Field label={`What the model observed (memory #${item.memoryIndex})`}>
              <Text text={item.observation} />
            </Field>
          )}
        </>
      );
    case 'stream':
      return <Text text={item.text} />;
    case 'step':
      return (
        <p>
          {item.isFinished ? `Took ${formatDuration(item.durationMs ?? 0)}` : 'Running'}
          {item.usage ? ` · ${formatUsage(item.usage)}` : ''}
        </p>
      );
    case 'stuck':
      return (
        <p>
          Rule {item.stuckKind}: {item.count} identical responses; earlier ones #
          {item.duplicateOf.join(', #')}.
          {item.nudge ? ` Nudge injected into step ${item.nudge.step}.` : ''}
        </p>
      );
    case 'marker':
      return (
        <>
          <p>{item.text}</p>
          {item.dropped && <p>Dropped memory indexes: {item.dropped.join(', ')}</p>}
        </>
      );
    case 'run':
      return (
        <>
          <Field label="Task">
            <Text text={item.task} />
          </Field>
          {item.agentDefinition && <AgentDefinitionView recorded={item.agentDefinition} />}
        </>
      );
    case 'human':
      return (
        <>
          <Text text={item.question} />
          <p>{item.answer === undefined ? 'Not answered yet' : `Answer: ${item.answer}`}</p>
        </>
      );
    case 'finished':
      return (
        <>
          <p>
            {item.state} after {item.steps} steps · {formatUsage(item.usage)}
          </p>
          {item.error && <Text text={item.error} />}
        </>
      );
    case 'debug':
      return <DebugDetails item={item} />;
    case 'score':
      return <ScoreDetails item={item} />;
  }
}
