/** The scripted server's script: replies, and the requests it records. */
import type { WireMessage } from './openai-wire';

export interface ScriptedToolCall {
  name: string;
  arguments?: unknown;
  id?: string;
}

export interface ScriptedServerReply {
  content?: string | null;
  toolCalls?: ScriptedToolCall[];
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number } | false;
  model?: string;
  delayMs?: number;
  chunkDelayMs?: number;
  chunkSize?: number;
  error?: { status: number; body?: unknown; headers?: Record<string, string> };
  hang?: boolean;
  cutAfterChunks?: number;
  /** stream N chunks, then end the response cleanly: no finish chunk, no [DONE] */
  endAfterChunks?: number;
  /** the stream ends after the finish chunk, without `data: [DONE]` */
  omitDone?: boolean;
  /** the finish chunk carries `finish_reason: null` (the stream still ends with [DONE]) */
  omitFinishReason?: boolean;
  sseError?: { message: string; type?: string; afterChunks?: number };
  malformedSse?: { afterChunks?: number };
  html?: string | boolean;
  emptyChoices?: boolean;
  /** stream without a content-type header (the SDK reads such a stream anyway) */
  noContentType?: boolean;
  /** stream only the text; tool calls are dropped (finish_reason as given, default "stop") */
  dropStreamedToolCalls?: boolean;
  /** a 200 whose data is `{"error": body}`: in the stream after N chunks, or as the JSON body */
  inBandError?: { body: unknown; afterChunks?: number };
}

export interface RecordedRequest {
  /** 0-based arrival order among chat requests */
  index: number;
  method: string;
  path: string;
  /** the URL's query parameters (Azure's api-version travels there) */
  query: Record<string, string>;
  /** header names lower-cased */
  headers: Record<string, string>;
  model: string;
  messages: WireMessage[];
  tools: unknown[] | undefined;
  toolChoice: unknown;
  stream: boolean;
  body: Record<string, unknown>;
  /** the 400 the server answered instead of consulting the script */
  rejected?: string;
  receivedAt: number;
  /** when the connection closed: after the answer, or when the client gave up */
  closedAt?: number;
  /** the client closed the connection before the answer was complete */
  clientAborted: boolean;
}

export type ScriptFunction = (
  request: RecordedRequest,
  index: number,
) => ScriptedServerReply | Promise<ScriptedServerReply>;
export type ServerScript = ScriptedServerReply[] | ScriptFunction;
