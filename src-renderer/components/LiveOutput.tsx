import { useLayoutEffect, useRef } from 'react';
import { TEST_IDS } from '../test-ids';
import { tailPieces, type LiveOutput } from '../lib/live-output';

/**
 * A running command's output as it streamed (`tool.output`), terminal style: stderr in
 * its own colour, kept scrolled to the end while the command runs. `tailLines` shows
 * only the last lines (the tool card); the inspector shows all of it.
 */
export function LiveOutputPanel(props: {
  live: LiveOutput;
  isRunning: boolean;
  tailLines?: number;
}) {
  const { live, isRunning, tailLines } = props;
  const ref = useRef<HTMLPreElement>(null);
  const pieces = tailLines === undefined ? live.pieces : tailPieces(live.pieces, tailLines);
  useLayoutEffect(() => {
    if (isRunning && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  });
  const omitted = live.omittedBytes;
  const omittedTotal = (omitted?.stdout ?? 0) + (omitted?.stderr ?? 0);
  return (
    <div className="live-output" data-testid={TEST_IDS.liveOutput} data-running={isRunning}>
      <pre ref={ref} className="terminal">
        {pieces.map((p, i) => (
          <span key={i} className={p.stream === 'stderr' ? 'terminal-stderr' : undefined}>
            {p.text}
          </span>
        ))}
        {isRunning && <span className="terminal-cursor">▍</span>}
      </pre>
      {omittedTotal > 0 && (
        <p className="muted live-output-note">
          {omittedTotal.toLocaleString('en-US')} more bytes were not streamed (past the output cap);
          the result keeps the end.
        </p>
      )}
    </div>
  );
}
