/**
 * Writes one scripted reply to the HTTP response, the way a real OpenAI-compatible server
 * (or a broken one, when the script asks for it) would: a JSON completion, an SSE stream,
 * an HTTP error, a cut connection, an HTML page, a malformed or erroring stream.
 */
import type { ServerResponse } from 'node:http';
import {
  completionBody,
  completionChunks,
  wireError,
  type CompletionParts,
  type WireError,
} from './openai-wire';
import { completionParts, defaultErrorText } from './reply-parts';
import type { RecordedRequest, ScriptedServerReply } from './scripted-types';

/** Sleeps, but wakes early when the client disconnects or the server closes. */
export type Wait = (ms: number, res: ServerResponse) => Promise<void>;

export async function writeReply(
  res: ServerResponse,
  record: RecordedRequest,
  reply: ScriptedServerReply,
  wait: Wait,
): Promise<void> {
  if (reply.delayMs) await wait(reply.delayMs, res);
  if (res.destroyed) return;
  if (reply.hang) {
    await wait(Number.POSITIVE_INFINITY, res);
    return;
  }
  if (reply.error) {
    const { status, headers } = reply.error;
    const body = reply.error.body ?? wireError(status, defaultErrorText(status)).body;
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
      ...headers,
    });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
    return;
  }
  if (reply.html) {
    const html =
      typeof reply.html === 'string'
        ? reply.html
        : '<!DOCTYPE html><html><head><title>Welcome</title></head><body>It works!</body></html>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    return;
  }
  const parts = completionParts(record, reply);
  if (reply.inBandError && !record.stream) {
    return sendJson(res, 200, { error: reply.inBandError.body });
  }
  if (reply.emptyChoices && !record.stream) {
    return sendJson(res, 200, { ...completionBody(parts), choices: [] });
  }
  if (!record.stream) {
    const text = JSON.stringify(completionBody(parts));
    if (reply.cutAfterChunks !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      await wait(20, res);
      res.destroy();
      return;
    }
    return sendJson(res, 200, completionBody(parts));
  }
  await writeStream(res, record, reply, parts, wait);
}

async function writeStream(
  res: ServerResponse,
  record: RecordedRequest,
  reply: ScriptedServerReply,
  parts: CompletionParts,
  wait: Wait,
): Promise<void> {
  const options = record.body['stream_options'] as { include_usage?: boolean } | undefined;
  // what text-only streaming servers send: the text, and no tool calls
  const sent = reply.dropStreamedToolCalls
    ? { ...parts, toolCalls: [], finishReason: reply.finishReason ?? 'stop' }
    : parts;
  const finishing = reply.omitFinishReason ? { ...sent, finishReason: null } : sent;
  const chunks = reply.emptyChoices
    ? [
        {
          id: parts.id,
          object: 'chat.completion.chunk',
          created: parts.created,
          model: parts.model,
          choices: [],
        },
      ]
    : completionChunks(finishing, reply.chunkSize ?? 16, options?.include_usage === true);
  res.writeHead(200, {
    ...(reply.noContentType ? {} : { 'content-type': 'text/event-stream; charset=utf-8' }),
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const stopAt =
    reply.cutAfterChunks ??
    reply.endAfterChunks ??
    reply.sseError?.afterChunks ??
    reply.malformedSse?.afterChunks ??
    reply.inBandError?.afterChunks;
  const limit =
    reply.cutAfterChunks !== undefined ||
    reply.endAfterChunks !== undefined ||
    reply.sseError ||
    reply.malformedSse
      ? Math.min(stopAt ?? 2, chunks.length)
      : reply.inBandError
        ? Math.min(stopAt ?? 0, chunks.length)
        : chunks.length;
  for (let i = 0; i < limit; i++) {
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(chunks[i])}\n\n`);
    if (reply.chunkDelayMs) await wait(reply.chunkDelayMs, res);
  }
  if (res.destroyed) return;
  if (reply.cutAfterChunks !== undefined) {
    await wait(20, res);
    res.destroy();
    return;
  }
  if (reply.endAfterChunks !== undefined || reply.omitDone) {
    res.end();
    return;
  }
  if (reply.sseError) {
    const error = {
      message: reply.sseError.message,
      type: reply.sseError.type ?? 'server_error',
    };
    res.end(`event: error\ndata: ${JSON.stringify({ error })}\n\n`);
    return;
  }
  if (reply.inBandError) {
    res.end(`data: ${JSON.stringify({ error: reply.inBandError.body })}\n\n`);
    return;
  }
  if (reply.malformedSse) {
    res.end('data: {"id":"chatcmpl-broken","choices":[{"delta":{"content":"oops"\n\n');
    return;
  }
  res.end('data: [DONE]\n\n');
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' }).end(text);
}

export function sendWireError(res: ServerResponse, error: WireError): void {
  res.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
  res.end(JSON.stringify(error.body));
}
