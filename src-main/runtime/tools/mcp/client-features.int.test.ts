/**
 * What the client offers a server beyond calling it (issue 26 items 1-4), against the
 * reference server from npm (`@modelcontextprotocol/server-everything`): prompts with
 * arguments, sampling through the run's model (shown as a model call, paused by the
 * debugger), elicitation answered as a form through the human broker, roots, log
 * messages at the configured level, and structured output.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { LlmRequestedEvent, McpLogEvent, RunEventPayload } from '@shared/events';
import { RunDebugger } from '../../debug/run-debugger';
import { ScriptedLlm } from '../../llm/scripted-llm';
import { Session } from '../../session/session';
import { HumanBroker, type HumanQuestion } from '../human-broker';
import type { Tool, ToolContext } from '../tool';
import type { McpServerSettings } from '../../config/schema';
import type { McpRunHost } from './mcp-run-host';
import { listServerPrompts, loadMcpTools, promptTaskFor, type McpToolset } from './mcp-toolset';
import { EVERYTHING, startEverything, stdioSettings } from './testing/reference-servers';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Harness {
  toolset: McpToolset;
  session: Session;
  events: RunEventPayload[];
  human: HumanBroker;
  llm: ScriptedLlm;
  profiles: (string | undefined)[];
  host: McpRunHost;
  context(signal?: AbortSignal): ToolContext;
}

async function connect(
  extra: Partial<McpServerSettings> = {},
  options: { http?: boolean; pause?: McpRunHost['pause'] } = {},
): Promise<Harness> {
  const workspace = mkdtempSync(join(tmpdir(), 'wb-features-'));
  const session = new Session(`features-${cleanups.length}`, workspace);
  cleanups.push(() => session.close());
  let settings: McpServerSettings = { ...stdioSettings(EVERYTHING, ['stdio']), ...extra };
  if (options.http) {
    const server = await startEverything('http');
    cleanups.push(() => server.stop());
    settings = { type: 'http', url: server.url, args: [], env: {}, timeout: 30, ...extra };
  }
  const events: RunEventPayload[] = [];
  const human = new HumanBroker();
  const llm = new ScriptedLlm([{ content: 'The sky is blue because of Rayleigh scattering.' }], {
    model: 'sampling-model',
  });
  const profiles: (string | undefined)[] = [];
  const host: McpRunHost = {
    runId: 'run-features',
    agent: 'mcp',
    emit: (e) => events.push(e),
    human,
    llmFor: (profile) => {
      profiles.push(profile);
      return llm;
    },
    ...(options.pause ? { pause: options.pause } : {}),
  };
  const toolset = await loadMcpTools({ session, servers: { everything: settings }, host });
  expect(toolset.failures).toEqual([]);
  return {
    toolset,
    session,
    events,
    human,
    llm,
    profiles,
    host,
    context: (signal = new AbortController().signal) => ({
      signal,
      runId: 'run-features',
      agent: 'mcp',
      step: 3,
      toolCallId: 'call_features',
      emit: (e) => events.push(e),
    }),
  };
}

function pick(toolset: McpToolset, name: string): Tool {
  const tool = toolset.tools.find((t) => t.name === `mcp_everything_${name}`);
  if (!tool) throw new Error(`no ${name} in ${toolset.tools.map((t) => t.name).join(', ')}`);
  return tool;
}

async function until<T>(find: () => T | undefined, ms = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('prompts', () => {
  it('lists the prompts with their arguments and makes a task of one', async () => {
    const { session } = await connect();
    const settings = stdioSettings(EVERYTHING, ['stdio']);
    const [listed] = await listServerPrompts(session, { everything: settings });
    expect(listed?.error).toBeUndefined();
    const args = listed!.prompts.find((p) => p.name === 'args-prompt');
    expect(args?.arguments).toEqual([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', required: false },
    ]);
    expect(listed!.prompts.map((p) => p.name)).toContain('simple-prompt');
    const task = await promptTaskFor(
      session,
      'everything',
      settings,
      { server: 'everything', name: 'args-prompt', arguments: { city: 'Paris', state: 'TX' } },
      'Answer in one line.',
    );
    expect(task).toBe("What's weather in Paris, TX?\n\nAnswer in one line.");
    await expect(
      promptTaskFor(
        session,
        'everything',
        settings,
        { server: 'everything', name: 'args-prompt', arguments: { town: 'x' } },
        '',
      ),
    ).rejects.toThrow(/requires city; it takes no town/);
  });
});

describe('sampling', () => {
  it("answers through the run's model, shown as a model call of the tool's step", async () => {
    const h = await connect({ sampling_profile: 'cheap' });
    const result = await pick(h.toolset, 'trigger-sampling-request').execute(
      { prompt: 'Why is the sky blue?', maxTokens: 50 },
      h.context(),
    );
    expect(result.error).toBeUndefined();
    expect(result.output).toContain('Rayleigh scattering');
    expect(h.profiles).toEqual(['cheap']);
    const requested = h.events.find((e): e is LlmRequestedEvent => e.type === 'llm.requested');
    expect(requested).toMatchObject({
      agent: 'mcp',
      step: 3,
      model: 'sampling-model',
      sampledBy: 'everything',
      messages: [
        { role: 'system', content: 'You are a helpful test server.' },
        {
          role: 'user',
          content: 'Resource trigger-sampling-request context: Why is the sky blue?',
        },
      ],
    });
    expect(h.events.find((e) => e.type === 'llm.responded')).toMatchObject({
      content: 'The sky is blue because of Rayleigh scattering.',
      step: 3,
    });
  });

  it('pauses in the debugger before the model call, like an agent step', async () => {
    const events: RunEventPayload[] = [];
    const debug = new RunDebugger((e) => events.push(e));
    const h = await connect(
      {},
      { pause: (agent, signal) => debug.gate({ agent, point: 'sampling', signal }) },
    );
    debug.pause();
    const running = pick(h.toolset, 'trigger-sampling-request').execute(
      { prompt: 'hello', maxTokens: 10 },
      h.context(),
    );
    const paused = await until(() => events.find((e) => e.type === 'run.paused'));
    expect(paused).toMatchObject({ point: 'sampling', agent: 'mcp' });
    expect(h.llm.requests).toHaveLength(0);
    debug.resume('continue', 'ui');
    expect((await running).output).toContain('Rayleigh');
    expect(h.llm.requests).toHaveLength(1);
  });

  it('is not offered to a server denied it by config', async () => {
    const h = await connect({ sampling: false });
    expect(h.toolset.tools.map((t) => t.name)).not.toContain(
      'mcp_everything_trigger-sampling-request',
    );
    expect(h.toolset.tools.map((t) => t.name)).toContain(
      'mcp_everything_trigger-elicitation-request',
    );
  });
});

describe('elicitation', () => {
  it('asks through the human broker with the schema as a form, checks, declines', async () => {
    const h = await connect();
    const questions: HumanQuestion[] = [];
    h.human.attach({ name: 'test', onQuestion: (q) => questions.push(q) });
    const tool = pick(h.toolset, 'trigger-elicitation-request');
    const first = tool.execute({}, h.context());
    const asked = await until(() => questions[0]);
    expect(asked.toolCallId).toBe('call_features');
    expect(asked.form?.server).toBe('everything');
    expect(asked.form?.message).toBe('Please provide inputs for the following fields:');
    expect(h.events.find((e) => e.type === 'human.requested')).toMatchObject({
      form: { server: 'everything' },
    });
    // a required field missing and a value out of range: refused, the question stays open
    const refused = h.human.answer(
      'run-features',
      'call_features',
      JSON.stringify({ action: 'accept', content: { integer: 500 } }),
    );
    expect(refused).toEqual({
      invalid: 'The form is not valid: name is required; integer must be at most 100.',
    });
    expect(
      h.human.answer(
        'run-features',
        'call_features',
        JSON.stringify({
          action: 'accept',
          content: { name: 'Ada Lovelace', check: true, integer: 7, email: 'ada@example.com' },
        }),
      ),
    ).toBe('accepted');
    const accepted = await first;
    expect(accepted.output).toContain('User provided the requested information');
    expect(accepted.output).toContain('- Name: Ada Lovelace');
    expect(accepted.output).toContain('- Favorite Integer: 7');

    const second = tool.execute({}, h.context());
    await until(() => questions[1]);
    h.human.answer('run-features', 'call_features', '{"action":"decline"}');
    expect((await second).output).toContain('User declined');
  });

  it('tells the server when nobody can answer', async () => {
    const h = await connect();
    const result = await pick(h.toolset, 'trigger-elicitation-request').execute({}, h.context());
    expect(result.error).toMatch(/No one can answer: this run is not interactive/);
  });
});

describe('roots', () => {
  it("answers roots/list with the session's workspace folder", async () => {
    const h = await connect();
    const result = await pick(h.toolset, 'get-roots-list').execute({}, h.context());
    expect(result.output).toContain(`URI: ${pathToFileURL(h.session.workspaceDir).href}`);
    expect(result.output).toContain('1. workspace');
  });
});

describe('logging', () => {
  it('records notifications/message as mcp.log events at the configured level', async () => {
    const h = await connect();
    // server-everything logs "Roots updated" at info once it has read the roots
    const log = await until(() =>
      h.events.find((e): e is McpLogEvent => e.type === 'mcp.log' && /Roots updated/.test(e.data)),
    );
    expect(log).toMatchObject({ server: 'everything', level: 'info', logger: 'everything-server' });
    expect(log.data).toBe('Roots updated: 1 root(s) received from client');
  });

  it('sets the level with logging/setLevel: below it nothing arrives', async () => {
    const h = await connect({ log_level: 'warning' });
    await pick(h.toolset, 'get-roots-list').execute({}, h.context());
    await new Promise((r) => setTimeout(r, 1_000));
    expect(h.events.filter((e) => e.type === 'mcp.log')).toEqual([]);
  });
});

describe('structured output', () => {
  it.each([false, true])(
    'records structuredContent and gives it to the model once as JSON (http: %s)',
    async (http) => {
      const h = await connect({}, { http });
      const result = await pick(h.toolset, 'get-structured-content').execute(
        { location: 'Los Angeles' },
        h.context(),
      );
      const weather = { temperature: 73, conditions: 'Sunny / Clear', humidity: 48 };
      expect(result.structured).toEqual(weather);
      // the server sent the same JSON as text: not repeated
      expect(result.output).toBe(JSON.stringify(weather));
    },
  );
});
