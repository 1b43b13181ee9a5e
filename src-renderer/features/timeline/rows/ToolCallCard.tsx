import { TEST_IDS } from '../../../test-ids';
import { useMemo } from 'react';
import { argsSummary, clip, formatDuration } from '../../../lib/format';
import { useWorkbench } from '../../../store/StoreProvider';
import { OutputText } from './OutputText';
import { OutputToggles } from './OutputToggles';
import { ToolArguments } from './ToolArguments';
import { argsLine, argsView } from './tool-args-view';
import type { ToolItem } from '../../../store/timeline/types';
import { LiveOutputPanel } from '../../../components/LiveOutput';
import { ClampedText } from './ClampedText';
import { SamplingCalls, StructuredResult } from './McpToolSections';
import { RowLink, RowShell } from './RowShell';
import type { RowProps } from './row-props';
import { ToolDiffLink } from './FilesLinks';

/**
 * A tool call: name, status, exit code and duration in the header; arguments as JSON,
 * the sandbox made while it waited for one, the result and the error below. Collapsed it shows the head of each; expanded (click
 * "show more" or press Enter) everything.
 */
const TOOL_STATUS_LABELS: Record<ToolItem['status'], string> = {
  running: 'running…',
  ok: 'ok',
  error: 'failed',
  skipped: 'skipped',
};

export function ToolCallCard({ item, isSelected, isExpanded, actions }: RowProps<ToolItem>) {
  const output = useWorkbench((s) => s.output);
  const runId = useWorkbench((s) => s.selectedRunId);
  const view = useMemo(() => argsView(item.name, item.args), [item.name, item.args]);
  const inlineArgs = argsLine(view);
  const sentDiffers =
    item.observation !== undefined &&
    item.output !== undefined &&
    !item.observation.includes(item.output);
  return (
    <RowShell
      item={item}
      testId={TEST_IDS.toolCall}
      className={`row-tool status-${item.status}${item.droppedAtSeq !== undefined ? ' is-dropped' : ''}`}
      isSelected={isSelected}
      onSelect={actions.select}
      data={{ tool: item.name, status: item.status, role: 'tool', 'repeat-of': item.repeatOf }}
    >
      <div className="tool-head">
        <button
          type="button"
          className="step-toggle"
          aria-expanded={isExpanded}
          aria-label={isExpanded ? 'Collapse tool call' : 'Expand tool call'}
          onClick={(e) => {
            e.stopPropagation();
            actions.toggleExpanded(item.id);
          }}
        >
          {isExpanded ? '▾' : '▸'}
        </button>
        <span className="tool-name mono">{item.name}</span>
        <span className={`chip chip-status-${item.status}`}>{TOOL_STATUS_LABELS[item.status]}</span>
        {item.repeats && item.repeats.length > 0 && (
          <span className="chip chip-error" title="The same error came again later in the run">
            {`×${item.repeats.length + 1}`}
          </span>
        )}
        {item.status === 'running' && item.progress && (
          <span className="chip" data-testid={TEST_IDS.toolProgress}>
            {formatProgress(item.progress)}
          </span>
        )}
        {item.exitCode !== undefined && (
          <span className={`chip ${item.exitCode === 0 ? '' : 'chip-error'}`}>
            {`exit ${item.exitCode}`}
          </span>
        )}
        {item.durationMs !== undefined && (
          <span className="muted">{formatDuration(item.durationMs)}</span>
        )}
        {runId && item.status !== 'running' && (
          <ToolDiffLink
            runId={runId}
            step={item.step}
            tool={item.name}
            toolCallId={item.toolCallId}
          />
        )}
        {item.memoryIndex !== undefined && (
          <span className="muted mono">{`#${item.memoryIndex}`}</span>
        )}
        {item.droppedAtSeq !== undefined && (
          <span className="chip chip-dropped">out of context</span>
        )}
        {!isExpanded && (
          <span className="muted mono tool-args-inline">
            {inlineArgs !== null ? clip(inlineArgs, 90) : argsSummary(item.args, 90)}
          </span>
        )}
      </div>
      {isExpanded && (
        <div className="tool-section">
          <div className="section-label">Arguments</div>
          <ToolArguments tool={item.name} args={item.args} hasLineNumbers={output.hasLineNumbers} />
        </div>
      )}
      {item.sandbox && (
        <div
          className={`tool-section tool-sandbox tone-${item.sandbox.status === 'failed' ? 'error' : 'info'}`}
          data-testid={TEST_IDS.toolSandbox}
          data-sandbox-status={item.sandbox.status}
        >
          <span className="marker-icon" aria-hidden="true">
            ▣
          </span>{' '}
          {item.sandbox.text}
        </div>
      )}
      {item.status === 'running' && item.live && (
        <div className="tool-section">
          <div className="section-label">Output so far</div>
          <LiveOutputPanel live={item.live} isRunning tailLines={isExpanded ? 40 : 8} />
        </div>
      )}
      <SamplingCalls item={item} isExpanded={isExpanded} />
      {item.error && <ToolError item={item} isExpanded={isExpanded} actions={actions} />}
      {item.output !== undefined && item.output !== '' && (
        <div className="tool-section">
          <div className="section-label">
            Result <OutputToggles />
          </div>
          <OutputText
            text={item.output}
            isExpanded={isExpanded}
            onToggle={() => actions.toggleExpanded(item.id)}
            isWrapped={output.isWrapped}
            hasLineNumbers={output.hasLineNumbers}
          />
        </div>
      )}
      <StructuredResult item={item} />
      {isExpanded && sentDiffers && (
        <div className="tool-section">
          <div className="section-label">Sent to the model</div>
          <ClampedText
            className="code"
            text={item.observation!}
            isExpanded={isExpanded}
            onToggle={() => actions.toggleExpanded(item.id)}
          />
        </div>
      )}
    </RowShell>
  );
}

/**
 * The error of a call. Said in full once: a sandbox that cannot start is explained by the
 * banner above the timeline, and a repeated error points at its first occurrence.
 */
function ToolError({ item, isExpanded, actions }: Omit<RowProps<ToolItem>, 'isSelected'>) {
  if (item.status === 'skipped') {
    // Not an error: the user chose it in the debugger, and this is what the model was told.
    return (
      <div className="tool-section" role="note">
        <div className="section-label">Skipped by you</div>
        <ClampedText
          className="code"
          text={item.error ?? ''}
          isExpanded={isExpanded}
          onToggle={() => actions.toggleExpanded(item.id)}
        />
      </div>
    );
  }
  if (item.isSandboxFailure) {
    return (
      <div className="tool-section tool-error" role="note">
        Not run: the sandbox could not start (the cause and the fix are in the banner above the
        timeline).
      </div>
    );
  }
  if (item.repeatOf !== undefined) {
    return (
      <div className="tool-section tool-error" role="note">
        Failed with the same error as{' '}
        <RowLink testId={TEST_IDS.repeatLink} onClick={() => actions.jumpTo(item.repeatOf!)}>
          an earlier call
        </RowLink>
        .
      </div>
    );
  }
  return (
    <div className="tool-section tool-error" role="note">
      <div className="section-label">
        Error
        {item.repeats && item.repeats.length > 0 && (
          <span className="muted">
            {' '}
            (again in{' '}
            {item.repeats.map((id, i) => (
              <RowLink key={id} testId={TEST_IDS.repeatLink} onClick={() => actions.jumpTo(id)}>
                {i === 0 ? '' : ' '}call {i + 2}
              </RowLink>
            ))}
            )
          </span>
        )}
      </div>
      <ClampedText
        className="code"
        text={item.error ?? ''}
        isExpanded={isExpanded}
        onToggle={() => actions.toggleExpanded(item.id)}
      />
    </div>
  );
}

/** "3 of 5 (60 %): Analyzing" or "3: Analyzing" when the tool gives no total. */
function formatProgress(p: NonNullable<ToolItem['progress']>): string {
  const amount =
    p.total !== undefined && p.total > 0
      ? `${p.progress} of ${p.total} (${Math.round((p.progress / p.total) * 100)} %)`
      : String(p.progress);
  return p.message ? `${amount}: ${p.message}` : amount;
}
