/**
 * A running command's output (`tool.output`) as `workbench run` prints it: whole lines,
 * each under a gutter (`│` for stdout, `!` for stderr), as they come. Batches end
 * mid-line; the rest of a line waits for its end or for the call's `tool.finished`.
 */
import type { RunEventOf } from '@shared/events';

const GUTTER = { stdout: '    │ ', stderr: '    ! ' } as const;
/** a longer line is cut for the terminal (the history and the UI keep it whole) */
const MAX_LINE = 240;

function clipLine(line: string): string {
  if (line.length <= MAX_LINE) return line;
  const more = (line.length - MAX_LINE).toLocaleString('en-US');
  return `${line.slice(0, MAX_LINE)}… (${more} more characters)`;
}

export class LiveOutputLines {
  /** the unfinished last line per call and stream */
  private readonly partial = new Map<string, string>();

  /** The complete lines this batch finishes, or null when it finishes none. */
  onOutput(event: RunEventOf<'tool.output'>): string | null {
    const key = `${event.toolCallId}\u0000${event.stream}`;
    const lines: string[] = [];
    if (event.text) {
      const pieces = ((this.partial.get(key) ?? '') + event.text).split('\n');
      this.partial.set(key, pieces.pop() ?? '');
      for (const piece of pieces) lines.push(GUTTER[event.stream] + clipLine(piece));
    }
    if (event.omittedBytes !== undefined) {
      lines.push(
        `${GUTTER[event.stream]}… ${event.omittedBytes.toLocaleString('en-US')} more bytes not shown live (the result has the end)`,
      );
    }
    return lines.length > 0 ? lines.join('\n') : null;
  }

  /** What is left of a call's output when it finishes, or null. */
  onFinished(toolCallId: string): string | null {
    const lines: string[] = [];
    for (const stream of ['stdout', 'stderr'] as const) {
      const key = `${toolCallId}\u0000${stream}`;
      const rest = this.partial.get(key);
      this.partial.delete(key);
      if (rest) lines.push(GUTTER[stream] + clipLine(rest));
    }
    return lines.length > 0 ? lines.join('\n') : null;
  }
}
