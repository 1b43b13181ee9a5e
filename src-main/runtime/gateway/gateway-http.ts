/**
 * The gateway's HTTP plumbing: reading a request body, errors in OpenAI's shape (refusals
 * say not to retry), the keep-alive comments of a held stream, and what `llm.requested`
 * records of a request body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestParams, RequestTool } from '@shared/events';
import { isCancellation } from '../util/abort';
import type { ExternalRun, RequestShape } from './external-run';

/** A request body larger than this is refused (a long agent conversation is far less). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export type Json = Record<string, unknown>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Comments on a held stream, so clients with a read timeout do not give up. */
export class KeepAlive {
  private timer: NodeJS.Timeout | null = null;
  isStarted = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly everyMs: number,
  ) {}

  start(): void {
    if (this.isStarted || this.res.headersSent) return;
    this.isStarted = true;
    this.res.writeHead(200, sseHeaders());
    this.res.write(': agent-workbench gateway\n\n');
    this.timer = setInterval(() => this.res.write(': keep-alive\n\n'), this.everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export function sseHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  };
}

export function copyHeaders(
  response: { header(name: string): string | undefined },
  names: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = response.header(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** What `llm.requested` records of the body besides its messages. */
export function shapeOf(body: Json): RequestShape {
  const params: RequestParams = {};
  for (const key of ['temperature', 'max_tokens', 'max_completion_tokens'] as const) {
    if (typeof body[key] === 'number') params[key] = body[key];
  }
  const tools = Array.isArray(body['tools']) ? (body['tools'] as RequestTool[]) : [];
  const choice = body['tool_choice'];
  return {
    model: String(body['model'] ?? ''),
    ...(Object.keys(params).length > 0 ? { params } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(choice === 'auto' || choice === 'required' || choice === 'none'
      ? { toolChoice: choice }
      : {}),
  };
}

export async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new HttpError(413, 'The request body is over 64 MB.', 'too_large');
    chunks.push(chunk);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Json;
  } catch {
    // said below
  }
  throw new HttpError(400, 'The request body is not a JSON object.', 'invalid_request');
}

export function failureOf(error: unknown, run: ExternalRun): HttpError {
  if (error instanceof HttpError) return error;
  if (run.signal.aborted || isCancellation(error, run.signal)) {
    return new HttpError(
      400,
      `Agent Workbench stopped this run (${run.agent}, run ${run.runId ?? '?'}): the call was not answered.`,
      'workbench_run_stopped',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HttpError(
    502,
    `Agent Workbench gateway could not reach the model server: ${message}`,
    'upstream_unreachable',
  );
}

export function sendError(res: ServerResponse, error: unknown): void {
  if (res.writableEnded) return;
  const failure =
    error instanceof HttpError
      ? error
      : new HttpError(500, (error as Error).message ?? String(error), 'gateway_error');
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(failure.status, {
    'content-type': 'application/json',
    // a refusal is final: OpenAI's SDKs would otherwise retry a 409 or a 5xx
    'x-should-retry': 'false',
  });
  res.end(
    JSON.stringify({ error: { message: failure.message, type: failure.code, code: failure.code } }),
  );
}
