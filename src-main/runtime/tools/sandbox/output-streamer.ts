/**
 * A running command's output as `tool.output` events (issue 17 item 4), so the user sees
 * it while the command runs rather than when it ends. Chunks arrive as the engine reads
 * them (a flood is thousands a second): they are joined per stream and emitted at most
 * every `intervalMs`, or sooner once `flushBytes` are waiting. Each stream streams at
 * most `capBytes` (the capture cap `tool.finished.output` keeps), so the history grows by
 * no more than today's output does; past it, only the count of bytes not streamed is
 * reported, at most once a second and once more at the end.
 */
import { StringDecoder } from 'node:string_decoder';
import type { RunEventPayload } from '@shared/events';
import { DEFAULT_OUTPUT_CAP_BYTES } from '../../sandbox/capped-output';

export const TOOL_OUTPUT_INTERVAL_MS = 100;
export const TOOL_OUTPUT_FLUSH_BYTES = 16 * 1024;
const OMITTED_NOTICE_MS = 1_000;

type StreamName = 'stdout' | 'stderr';

interface StreamState {
  decoder: StringDecoder;
  text: string;
  streamedBytes: number;
  omittedBytes: number;
  reportedOmitted: number;
  lastNoticeAt: number;
}

export interface OutputStreamTarget {
  emit: (event: RunEventPayload) => void;
  agent: string;
  step: number;
  toolCallId: string;
}

export interface OutputStreamerOptions {
  capBytes?: number;
  intervalMs?: number;
  flushBytes?: number;
  now?: () => number;
}

export class ToolOutputStreamer {
  private readonly streams: Record<StreamName, StreamState>;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly capBytes: number;
  private readonly intervalMs: number;
  private readonly flushBytes: number;
  private readonly now: () => number;

  constructor(
    private readonly target: OutputStreamTarget,
    private readonly name: string,
    options: OutputStreamerOptions = {},
  ) {
    this.capBytes = options.capBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
    this.intervalMs = options.intervalMs ?? TOOL_OUTPUT_INTERVAL_MS;
    this.flushBytes = options.flushBytes ?? TOOL_OUTPUT_FLUSH_BYTES;
    this.now = options.now ?? Date.now;
    const fresh = (): StreamState => ({
      decoder: new StringDecoder('utf8'),
      text: '',
      streamedBytes: 0,
      omittedBytes: 0,
      reportedOmitted: 0,
      lastNoticeAt: 0,
    });
    this.streams = { stdout: fresh(), stderr: fresh() };
  }

  readonly onStdout = (chunk: Buffer): void => this.push('stdout', chunk);
  readonly onStderr = (chunk: Buffer): void => this.push('stderr', chunk);

  private push(stream: StreamName, chunk: Buffer): void {
    if (this.closed || chunk.length === 0) return;
    const s = this.streams[stream];
    const room = Math.max(0, this.capBytes - s.streamedBytes);
    const take = Math.min(room, chunk.length);
    if (take > 0) {
      // The decoder holds back a character split across chunks (or across the cap).
      s.text += s.decoder.write(chunk.subarray(0, take));
      s.streamedBytes += take;
    }
    s.omittedBytes += chunk.length - take;
    if (s.text.length >= this.flushBytes) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Emits what waits now; an omitted-bytes notice only when a second has passed. */
  flush(final = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const stream of ['stdout', 'stderr'] as const) {
      const s = this.streams[stream];
      if (final) s.text += s.decoder.end();
      if (s.text) {
        this.emit(stream, s.text);
        s.text = '';
      }
      const notice =
        s.omittedBytes > s.reportedOmitted &&
        (final || this.now() - s.lastNoticeAt >= OMITTED_NOTICE_MS);
      if (notice) {
        this.emit(stream, '', s.omittedBytes);
        s.reportedOmitted = s.omittedBytes;
        s.lastNoticeAt = this.now();
      } else if (s.omittedBytes > s.reportedOmitted) {
        // More was cut since the last notice: report it when the second is up.
        this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
      }
    }
  }

  /** The command ended: everything left goes out (before `tool.finished`), nothing after. */
  close(): void {
    if (this.closed) return;
    this.flush(true);
    this.closed = true;
  }

  private emit(stream: StreamName, text: string, omittedBytes?: number): void {
    this.target.emit({
      type: 'tool.output',
      agent: this.target.agent,
      step: this.target.step,
      toolCallId: this.target.toolCallId,
      name: this.name,
      stream,
      text,
      ...(omittedBytes !== undefined ? { omittedBytes } : {}),
    });
  }
}
