/**
 * The model gateway (docs/gateway.md): an OpenAI-compatible server on loopback that an
 * agent written with any framework uses as its `base_url`, with the gateway token as its
 * API key. Each chat call is forwarded to the chosen profile (with the profile's key) and
 * recorded as a step of the agent's run (gateway-runs.ts, external-run.ts); the run's
 * debugger may hold the call at its two safe points (gateway-debug.ts); a replay or fork
 * answers from a recording instead (gateway-replay.ts).
 *
 *   POST /v1/chat/completions   recorded; streamed or not; the body is sent on unchanged
 *   GET  /v1/models             the upstream's list (or the profile's model)
 *   POST /v1/responses          forwarded as is where the upstream speaks it (not recorded)
 *   /mcp/sandbox                the sandbox MCP server (docs/mcp.md), same token
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { bodyOfReply, replyOfBody, SseReader, StreamAssembler, streamOfReply } from './chat-reply';
import type { ChatReply } from './chat-reply';
import { messageOfWire } from './wire-messages';
import { RUN_HEADER, runNameOf, type GatewayRuns } from './gateway-runs';
import type { ExternalRun } from './external-run';
import {
  copyHeaders,
  failureOf,
  HttpError,
  KeepAlive,
  readJson,
  sendError,
  sseHeaders,
  shapeOf,
  type Json,
} from './gateway-http';
import type { Upstream } from './upstream';
import { requestUpstream } from './upstream-request';
import { holdBeforeModel, holdBeforeTools } from './gateway-debug';
import type { ReplayPlan } from './gateway-replay';
import type { SandboxMcpHttpHandler } from '../sandbox-mcp/sandbox-mcp-http';

/** the model name that means "the profile's own model" */
export const PROFILE_MODEL_ALIAS = 'workbench';

export interface GatewayServerOptions {
  runs: GatewayRuns;
  upstream: Upstream;
  /** the API key agents must send (`Authorization: Bearer TOKEN`) */
  token: string;
  port?: number;
  /** how often a streamed call paused in the debugger gets an SSE comment (default 10 s) */
  keepAliveMs?: number;
  /** answers calls from a recording (`--replay`, a fork) */
  replay?: ReplayPlan;
  /** the sandbox MCP server at its path (it checks the token and the client's address itself) */
  sandboxMcp?: SandboxMcpHttpHandler;
}

export class GatewayServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly tokenBytes: Buffer;

  constructor(private readonly options: GatewayServerOptions) {
    this.tokenBytes = Buffer.from(options.token, 'utf8');
  }

  /** Listens on 127.0.0.1; resolves with the base URL agents use (ends in /v1). */
  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    return this.url;
  }

  get url(): string {
    const port = (this.server?.address() as AddressInfo | null)?.port ?? 0;
    return `http://127.0.0.1:${port}/v1`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.options.sandboxMcp?.handle(req, res)) return;
    try {
      const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
      if (!this.isAuthorized(req)) {
        throw new HttpError(
          401,
          'Agent Workbench gateway: send the gateway token as the API key (Authorization: Bearer TOKEN). It is printed by `workbench gateway` and shown in the Gateway panel.',
          'invalid_api_key',
        );
      }
      if (req.method === 'POST' && path === '/v1/chat/completions')
        return await this.chat(req, res);
      if (req.method === 'GET' && path === '/v1/models') return await this.models(res);
      if (req.method === 'POST' && path === '/v1/responses') return await this.responses(req, res);
      throw new HttpError(
        404,
        `Agent Workbench gateway has no ${req.method} ${path}: it serves POST /v1/chat/completions, GET /v1/models and POST /v1/responses.`,
        'not_found',
      );
    } catch (error) {
      sendError(res, error);
    }
  }

  private isAuthorized(req: IncomingMessage): boolean {
    const auth = req.headers['authorization'];
    const bearer = typeof auth === 'string' ? auth.replace(/^Bearer\s+/i, '') : undefined;
    const apiKey = req.headers['api-key'];
    const sent = bearer ?? (typeof apiKey === 'string' ? apiKey : '');
    const bytes = Buffer.from(sent, 'utf8');
    return bytes.length === this.tokenBytes.length && timingSafeEqual(bytes, this.tokenBytes);
  }

  private async chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (!Array.isArray(body['messages']) || body['messages'].length === 0) {
      throw new HttpError(
        400,
        "The request has no 'messages' (an array of chat messages).",
        'invalid_request',
      );
    }
    const name = runNameOf(req.headers[RUN_HEADER]);
    if (name instanceof Error) throw new HttpError(400, name.message, 'invalid_run_name');
    const { upstream } = this.options;
    if (body['model'] === undefined || body['model'] === PROFILE_MODEL_ALIAS)
      body['model'] = upstream.model;
    const messages = (body['messages'] as unknown[]).map(messageOfWire);
    const run = await this.options.runs.route(
      name,
      messages,
      req.headers['user-agent'],
      String(body['model']),
    );
    const started = performance.now();
    const isStream = body['stream'] === true;
    // the call ends when the client goes away, or when the run is stopped
    const clientGone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) clientGone.abort();
    });
    const signal = AbortSignal.any([run.signal, clientGone.signal]);
    const keepAlive = new KeepAlive(res, this.options.keepAliveMs ?? 10_000);
    try {
      const { step, fresh } = run.openStep(messages);
      if (isStream && run.debug.isWatching) keepAlive.start();
      const held = await holdBeforeModel(run, body, signal);
      run.requested(held.messages, shapeOf(body));
      let reply: ChatReply | undefined = held.reply;
      let isCounted = false;
      const planned = reply ? undefined : this.options.replay?.answer(run, step, fresh);
      if (planned?.kind === 'reply') reply = planned.reply;
      if (planned?.kind === 'fail') throw new HttpError(409, planned.message, 'replay_diverged');
      let raw: { text: string; isBody: boolean } | undefined;
      if (!reply) {
        isCounted = true;
        const forwarded = await this.forward(body, isStream, signal, res, keepAlive, run);
        if (!forwarded) return; // the upstream's error went to the agent as it came
        reply = forwarded.reply;
        raw = forwarded.raw;
      }
      run.responded(reply, performance.now() - started, isCounted);
      const delivered = await holdBeforeTools(run, reply, signal);
      run.delivered(delivered.reply);
      if (res.writableEnded) return;
      const isEdited = delivered.isEdited || !raw;
      const id = `chatcmpl-wb-${randomUUID().slice(0, 12)}`;
      if (isStream) {
        keepAlive.start();
        const withUsage = (body['stream_options'] as Json | undefined)?.['include_usage'] === true;
        res.end(isEdited ? streamOfReply(delivered.reply, id, withUsage) : raw!.text);
      } else {
        const text = isEdited ? JSON.stringify(bodyOfReply(delivered.reply, id)) : raw!.text;
        res.writeHead(200, { 'content-type': 'application/json' }).end(text);
      }
    } catch (error) {
      const failure = failureOf(error, run);
      run.failed(failure.message, failure.status);
      if (keepAlive.isStarted || res.headersSent) {
        // the stream has begun: the error goes in-band, as OpenAI's SDKs read it
        res.end(
          `data: ${JSON.stringify({ error: { message: failure.message, type: failure.code, code: failure.code } })}\n\n`,
        );
      } else sendError(res, failure);
    } finally {
      keepAlive.stop();
      this.options.runs.release(run);
    }
  }

  /**
   * Sends the call upstream. Streamed with nothing that could pause it, the chunks reach
   * the agent as they come (recorded on the way); otherwise the reply is read whole first.
   * Answers undefined when the upstream refused the call (its answer went to the agent).
   */
  private async forward(
    body: Json,
    isStream: boolean,
    signal: AbortSignal,
    res: ServerResponse,
    keepAlive: KeepAlive,
    run: ExternalRun,
  ): Promise<{ reply: ChatReply; raw?: { text: string; isBody: boolean } } | undefined> {
    const { upstream } = this.options;
    const response = await requestUpstream(`${await upstream.baseUrl()}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${upstream.apiKey}`,
        ...(isStream ? { accept: 'text/event-stream' } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
    const model = String(body['model'] ?? '');
    if (!response.ok) {
      const text = await response.text();
      run.failed(
        `the model server answered ${response.status}: ${text.slice(0, 500)}`,
        response.status,
      );
      if (keepAlive.isStarted) {
        res.end(
          `data: ${JSON.stringify({ error: { message: `The model server answered ${response.status}: ${text.slice(0, 2000)}`, code: 'upstream_error' } })}\n\n`,
        );
      } else {
        res.writeHead(response.status, {
          'content-type': response.header('content-type') ?? 'application/json',
          ...copyHeaders(response, ['retry-after', 'x-should-retry']),
        });
        res.end(text);
      }
      return undefined;
    }
    if (!isStream) {
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new HttpError(
          502,
          `The model server's answer is not JSON: ${text.slice(0, 200)}`,
          'upstream_error',
        );
      }
      return { reply: replyOfBody(json, model), raw: { text, isBody: true } };
    }
    const assembler = new StreamAssembler(model);
    const reader = new SseReader();
    const isPiped = !keepAlive.isStarted && !run.debug.isWatching;
    if (isPiped) res.writeHead(200, sseHeaders());
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      if (isPiped) res.write(chunk);
      const piece = decoder.decode(chunk, { stream: true });
      if (!isPiped) text += piece;
      for (const data of reader.feed(piece)) {
        if (data === '[DONE]') continue;
        try {
          assembler.push(JSON.parse(data));
        } catch {
          // a line that is not JSON is the agent's to judge; the record skips it
        }
      }
    }
    if (isPiped) res.end();
    if (assembler.error !== undefined) {
      run.failed(`the model server sent an error in its stream: ${assembler.error}`, null);
      if (!isPiped) res.end(text);
      return undefined;
    }
    return { reply: assembler.result(), ...(isPiped ? {} : { raw: { text, isBody: false } }) };
  }

  private async models(res: ServerResponse): Promise<void> {
    const { upstream } = this.options;
    const own = {
      id: PROFILE_MODEL_ALIAS,
      object: 'model',
      created: 0,
      owned_by: 'agent-workbench',
    };
    let data: unknown[] = [
      { id: upstream.model, object: 'model', created: 0, owned_by: upstream.profile },
    ];
    try {
      const response = await requestUpstream(`${await upstream.baseUrl()}/models`, {
        method: 'GET',
        headers: { authorization: `Bearer ${upstream.apiKey}` },
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      const listed = response.ok ? (JSON.parse(text) as Json)['data'] : undefined;
      if (Array.isArray(listed)) data = listed;
    } catch {
      // the profile's model alone (a server without /models)
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [...data, own] }));
  }

  private async responses(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const { upstream } = this.options;
    if (body['model'] === undefined || body['model'] === PROFILE_MODEL_ALIAS)
      body['model'] = upstream.model;
    const base = await upstream.baseUrl();
    const response = await requestUpstream(`${base}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${upstream.apiKey}` },
      body: JSON.stringify(body),
    });
    if (response.status === 404 || response.status === 405 || response.status === 501) {
      await response.text(); // frees the kept-alive connection
      throw new HttpError(
        501,
        `The model server of profile "${upstream.profile}" (${base}) does not speak the Responses API (POST /responses answered ${response.status}). Use chat completions: in the OpenAI Agents SDK, setOpenAIAPI('chat_completions') (Python: set_default_openai_api("chat_completions")).`,
        'responses_unsupported',
      );
    }
    res.writeHead(response.status, {
      'content-type': response.header('content-type') ?? 'application/json',
    });
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  }
}
