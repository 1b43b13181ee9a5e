/**
 * "Server logs": the log messages the run's MCP servers sent (`mcp.log`), collapsible,
 * filtered by level (info and above unless chosen), with the count the servers' rate
 * limit left out. A run can gather thousands of lines: only the rows in view are
 * rendered (fixed-height rows in a scrolling box), and the list is never copied per event
 * (the timeline appends to a shared list, `TimelineIndex.mcpLogs`).
 */
import { useMemo, useState } from 'react';
import { MCP_LOG_LEVELS, type McpLogLevel } from '@shared/events';
import { TEST_IDS } from '../../test-ids';
import { useWorkbench } from '../../store/StoreProvider';
import type { McpLogLine } from '../../store/timeline/types';

/** the height of one row in px (mcp.css `.mcp-log-line`) */
const ROW_HEIGHT = 20;
/** rows rendered while the box has no measured height yet (and above/below the view) */
const WINDOW_ROWS = 14;
const OVERSCAN = 6;

const EMPTY: McpLogLine[] = [];

function clock(ts: number): string {
  const d = new Date(ts);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** The lines at or above `level`, and the messages the servers left out in all. */
export function visibleLogs(
  lines: readonly McpLogLine[],
  count: number,
  level: McpLogLevel,
): { shown: McpLogLine[]; omitted: number } {
  const least = MCP_LOG_LEVELS.indexOf(level);
  const shown: McpLogLine[] = [];
  let omitted = 0;
  for (let i = 0; i < count; i++) {
    const line = lines[i]!;
    omitted += line.omitted ?? 0;
    if (MCP_LOG_LEVELS.indexOf(line.level) >= least) shown.push(line);
  }
  return { shown, omitted };
}

export function McpLogPanel({ runId }: { runId: string }) {
  const count = useWorkbench((s) => s.runs[runId]?.timeline.mcpLogCount ?? 0);
  const lines = useWorkbench((s) => s.runs[runId]?.timeline.index.mcpLogs ?? EMPTY);
  const [level, setLevel] = useState<McpLogLevel>('info');
  const [isOpen, setOpen] = useState(false);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(0);
  const { shown, omitted } = useMemo(
    () => visibleLogs(lines, count, level),
    // `lines` only grows: the count says when it changed
    [lines, count, level],
  );
  if (count === 0) return null;
  const rows = viewHeight > 0 ? Math.ceil(viewHeight / ROW_HEIGHT) : WINDOW_ROWS;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, first + rows + 2 * OVERSCAN);
  return (
    <details
      className="mcp-log-panel"
      data-testid={TEST_IDS.mcpLogPanel}
      data-count={count}
      data-shown={shown.length}
      open={isOpen}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        Server logs{' '}
        <span className="muted">
          ({shown.length === count ? count : `${shown.length} of ${count}`}
          {omitted > 0 ? `, ${omitted} left out by the rate limit` : ''})
        </span>
      </summary>
      <div className="mcp-log-tools">
        <label>
          Level{' '}
          <select
            data-testid={TEST_IDS.mcpLogLevel}
            value={level}
            onChange={(e) => setLevel(e.target.value as McpLogLevel)}
          >
            {MCP_LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l === 'debug' ? 'debug (all)' : `${l} and above`}
              </option>
            ))}
          </select>
        </label>
        {omitted > 0 && (
          <span
            className="muted"
            data-testid={TEST_IDS.mcpLogOmitted}
            data-omitted={omitted}
            title="At most 20 a second per server are recorded"
          >
            {omitted} message{omitted === 1 ? '' : 's'} left out (rate limit)
          </span>
        )}
      </div>
      {isOpen && (
        <div
          className="mcp-log-list"
          role="log"
          ref={(el) => {
            if (el && el.clientHeight !== viewHeight) setViewHeight(el.clientHeight);
          }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          {shown.length === 0 ? (
            <p className="muted">No messages at {level} or above.</p>
          ) : (
            <div style={{ height: shown.length * ROW_HEIGHT, position: 'relative' }}>
              {shown.slice(first, last).map((line, i) => (
                <LogRow key={line.seq} line={line} top={(first + i) * ROW_HEIGHT} />
              ))}
            </div>
          )}
        </div>
      )}
    </details>
  );
}

function LogRow({ line, top }: { line: McpLogLine; top: number }) {
  return (
    <div
      className="mcp-log-line"
      style={{ position: 'absolute', top, left: 0, right: 0 }}
      data-testid={TEST_IDS.mcpLogLine}
      data-level={line.level}
      data-server={line.server}
      title={line.data}
    >
      <span className="muted">{clock(line.ts)}</span>
      <span>{line.server}</span>
      <span className="mcp-log-level">{line.level}</span>
      {line.logger && <span className="muted">{line.logger}</span>}
      <span className="mcp-log-text">{line.data}</span>
      {line.omitted ? <span className="muted">(+{line.omitted} left out before)</span> : null}
    </div>
  );
}
