/**
 * A real HTTP server that speaks the OpenAI chat-completions protocol and answers from a
 * script. The runtime's tests, the CLI integration tests and the UI's Playwright specs run
 * the real `openai` client against it (plain `node:http`, no framework).
 *
 * Endpoints
 *   POST /v1/chat/completions                     (also /openai/deployments/NAME/chat/completions, Azure)
 *   GET  /v1/models                                (also /openai/models)
 *   GET  /_scripted/requests                       the recorded requests as JSON (auth headers redacted;
 *                                                  none with `recordRequests: false`)
 *   POST /_scripted/reset                          forgets recorded requests and attempt counters
 *   GET  /_scripted/pages/NAME                     an HTML page given in the options (`pages`)
 *   anything else                                  404 "404 page not found"
 *
 * Script: a list of replies consumed in order (one per chat request, retries included), or
 * a function `(request, index) => reply`. `scenarioScript()` in ./scenario-script.ts turns a
 * JSON scenario file into such a function (that format is documented there).
 *
 * Reply (`ScriptedServerReply`, every field optional):
 *   content        assistant text; "{{model}}" is replaced by the requested model, "{{turn}}" by the turn
 *   toolCalls      [{name, arguments, id?}]: arguments is an object (sent as JSON) or a raw string
 *                  (sent as is, so malformed JSON can be scripted)
 *   finishReason   default "tool_calls" when there are tool calls, else "stop"
 *   usage          {prompt_tokens, completion_tokens}; default: ~4 characters a token; false = none
 *   model          the model reported back; default: the requested model
 *   delayMs        wait before answering (aborted early if the client goes away)
 *   chunkDelayMs   wait between stream chunks;  chunkSize: characters per streamed piece (default 16)
 *   error          {status, body?, headers?}: an HTTP error; body defaults to an OpenAI error body
 *   hang           true: never answer (until the client disconnects or the server closes)
 *   cutAfterChunks N: stream N chunks then destroy the socket (non-streaming: cut mid-body)
 *   endAfterChunks N: stream N chunks then end the response cleanly (no finish, no [DONE])
 *   omitDone       the stream ends after its finish chunk, without `data: [DONE]`
 *   omitFinishReason the finish chunk says `finish_reason: null` ([DONE] still sent)
 *   sseError       {message, afterChunks?}: stream chunks then an SSE `event: error`
 *   malformedSse   {afterChunks?}: stream chunks then `data: {not json`
 *   html           200 with an HTML body instead of JSON (a proxy or a wrong base_url)
 *   emptyChoices   200 with `choices: []`
 *   noContentType  a stream sent without a content-type header
 *   dropStreamedToolCalls  streams only the text (tool calls dropped, finish_reason "stop"), as
 *                  text-only streaming servers do; the non-streamed answer keeps them
 *   inBandError    {body, afterChunks?}: a 200 whose data is `{"error": body}` (in the stream
 *                  after N chunks, or as the whole JSON body), as LiteLLM, OpenRouter and
 *                  mock servers send errors
 *
 * Model rules (model-rules.ts): o1/o3/o4/gpt-5 (and `reasoningModels`) refuse `max_tokens` and
 * a temperature other than 1 with OpenAI's 400s; `modelsWithoutTools` refuse `tools`.
 *
 * Every chat request is validated like the real API (openai-wire.ts): a tool message that
 * answers no preceding `tool_calls`, or an assistant `tool_calls` id without a following tool
 * message, is rejected with OpenAI's own 400 text and never reaches the script.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { validateChatRequest, wireError, type WireMessage } from './openai-wire';
import { modelRuleError } from './model-rules';
import { invalidKey } from './reply-parts';
import { sendJson, sendWireError, writeReply } from './reply-writer';
import type { RecordedRequest, ScriptedServerReply, ServerScript } from './scripted-types';

export type {
  RecordedRequest,
  ScriptedServerReply,
  ScriptedToolCall,
  ScriptFunction,
  ServerScript,
} from './scripted-types';

export interface ScriptedServerOptions {
  host?: string;
  /** 0 (default) picks a free port */
  port?: number;
  /** when set, requests must carry `Authorization: Bearer KEY` or `api-key: KEY` */
  apiKey?: string;
  /** ids returned by GET /v1/models */
  models?: string[];
  /** HTML pages served at GET /_scripted/pages/NAME (a scenario file's `pages`) */
  pages?: Record<string, string>;
  /** set false to skip OpenAI's message-list checks */
  validate?: boolean;
  /** models treated as reasoning models besides o1/o3/o4/gpt-5 (model-rules.ts) */
  reasoningModels?: string[];
  /** models that refuse `tools`, as Ollama's models without tool support do */
  modelsWithoutTools?: string[];
  /**
   * Keep every chat request in `requests` (default true: tests read them). The runtime's
   * own scripted models (the built-in demo, `api_type = "scripted"`) live as long as
   * `workbench serve` does and nobody reads what they received: kept, each run's request
   * bodies would stay in memory until the process ends (issue 27).
   */
  recordRequests?: boolean;
}

const CHAT_PATH = /^(?:\/v1|\/openai\/deployments\/[^/]+)\/chat\/completions$/;
const MODELS_PATH = /^\/(?:v1|openai)\/models$/;
const PAGE_PATH = /^\/_scripted\/pages\/([a-z0-9-]+)$/;

export class ScriptedOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private script: ServerScript;
  private served = 0;
  /** chat requests received since the start or the last reset (recorded or not) */
  private received = 0;
  private closing = false;
  private readonly closeWaiters = new Set<() => void>();

  constructor(
    script: ServerScript,
    private readonly options: ScriptedServerOptions = {},
  ) {
    this.script = script;
  }

  /** Starts listening; resolves with the base URL to give the client (ends in /v1). */
  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return this.baseUrl;
  }

  get port(): number {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('The scripted server is not listening');
    return address.port;
  }

  get origin(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.port}`;
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** Replaces the script (and restarts its list index). */
  setScript(script: ServerScript): void {
    this.script = script;
    this.served = 0;
  }

  /** Forgets recorded requests, the list index and a scenario script's attempt counters. */
  reset(): void {
    this.requests.length = 0;
    this.received = 0;
    this.served = 0;
    if (typeof this.script === 'function') (this.script as { reset?: () => void }).reset?.();
  }

  /** Chat requests the script answered (those the validator rejected are left out). */
  get answered(): RecordedRequest[] {
    return this.requests.filter((r) => !r.rejected);
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const wake of this.closeWaiters) wake();
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === '/_scripted/requests' && req.method === 'GET') {
        return sendJson(res, 200, this.requests.map(redactRecord));
      }
      if (path === '/_scripted/reset' && req.method === 'POST') {
        this.reset();
        return sendJson(res, 200, { ok: true });
      }
      const page = PAGE_PATH.exec(path)?.[1];
      if (page !== undefined && req.method === 'GET' && this.options.pages?.[page] !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(this.options.pages[page]);
        return;
      }
      if (!this.authorized(req)) return sendWireError(res, invalidKey(req));
      if (MODELS_PATH.test(path) && req.method === 'GET') {
        const ids = this.options.models ?? ['scripted-model'];
        return sendJson(res, 200, {
          object: 'list',
          data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })),
        });
      }
      if (CHAT_PATH.test(path) && req.method === 'POST') return await this.chat(req, res, path);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    } catch (error) {
      if (!res.headersSent) {
        sendJson(res, 500, {
          error: { message: `scripted server: ${String(error)}`, type: 'server_error' },
        });
      } else {
        res.destroy();
      }
    }
  }

  private authorized(req: IncomingMessage): boolean {
    const key = this.options.apiKey;
    if (!key) return true;
    return req.headers.authorization === `Bearer ${key}` || req.headers['api-key'] === key;
  }

  private async chat(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendWireError(
        res,
        wireError(
          400,
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        ),
      );
    }
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const record: RecordedRequest = {
      index: this.received++,
      method: req.method ?? 'POST',
      path,
      query: Object.fromEntries(new URL(req.url ?? '/', 'http://scripted').searchParams),
      headers: flatHeaders(req),
      model: typeof b['model'] === 'string' ? b['model'] : '',
      messages: Array.isArray(b['messages']) ? (b['messages'] as WireMessage[]) : [],
      tools: Array.isArray(b['tools']) ? b['tools'] : undefined,
      toolChoice: b['tool_choice'],
      stream: b['stream'] === true,
      body: b,
      receivedAt: Date.now(),
      clientAborted: false,
    };
    if (this.options.recordRequests !== false) this.requests.push(record);
    res.on('close', () => {
      record.closedAt = Date.now();
      record.clientAborted = !res.writableFinished;
    });
    const invalid =
      this.options.validate === false
        ? null
        : (validateChatRequest(body) ?? modelRuleError(b, this.options));
    if (invalid) {
      record.rejected = invalid.body.error.message;
      return sendWireError(res, invalid);
    }
    const index = this.served++;
    const reply = await this.replyFor(record, index);
    await writeReply(res, record, reply, (ms, response) => this.wait(ms, response));
  }

  private async replyFor(record: RecordedRequest, index: number): Promise<ScriptedServerReply> {
    if (typeof this.script === 'function') return this.script(record, index);
    const reply = this.script[index];
    if (reply) return reply;
    // Not retryable (400), so a test whose script is too short fails at once and says why.
    return {
      error: {
        status: 400,
        body: wireError(
          400,
          `scripted server: the script has ${this.script.length} replies and request ${index + 1} asked for another`,
          'scripted_script_exhausted',
        ).body,
      },
    };
  }

  /** Sleeps, but wakes when the client disconnects or the server closes. */
  private wait(ms: number, res: ServerResponse): Promise<void> {
    if (res.destroyed || this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        if (timer) clearTimeout(timer);
        res.off('close', done);
        this.closeWaiters.delete(done);
        resolve();
      };
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
      res.once('close', done);
      this.closeWaiters.add(done);
    });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function redactRecord(record: RecordedRequest): RecordedRequest {
  const headers = { ...record.headers };
  for (const name of ['authorization', 'api-key', 'x-api-key']) {
    if (headers[name]) headers[name] = '[redacted]';
  }
  return { ...record, headers };
}

/** Starts a server for a test; remember to `await server.close()`. */
export async function startScriptedServer(
  script: ServerScript,
  options: ScriptedServerOptions = {},
): Promise<{ server: ScriptedOpenAiServer; baseUrl: string }> {
  const server = new ScriptedOpenAiServer(script, options);
  const baseUrl = await server.start();
  return { server, baseUrl };
}
