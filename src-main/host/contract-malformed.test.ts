/**
 * Malformed input for every contract entry, sent over the real WebSocket transport:
 * each gets a typed error naming the bad field, and raw frames that break the protocol
 * close only their own connection.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { REQUEST_CHANNELS, type RequestChannel } from '@shared/ipc';
import type { WsServerFrame } from '@shared/ws-protocol';
import { serve, until } from './testing/ws-contract-fixture';

describe('contract over WebSocket: malformed input gets a typed error for every entry', () => {
  const MALFORMED: Record<RequestChannel, { input: unknown; path: string }[]> = {
    'app:info': [{ input: { extra: 1 }, path: '(input)' }],
    'run:start': [
      { input: { task: '' }, path: 'task' },
      { input: { task: 'x', agent: 'root' }, path: 'agent' },
      { input: { task: 'x', maxSteps: -1 }, path: 'maxSteps' },
      { input: { task: 'x', sessionId: '../../etc' }, path: 'sessionId' },
      { input: { task: 'x', breakpoints: ['tool:'] }, path: 'breakpoints.0' },
      { input: { task: 'x', approveTools: [''] }, path: 'approveTools.0' },
      { input: { task: 'x', profile: 'a b' }, path: 'profile' },
    ],
    'run:stop': [
      { input: {}, path: 'runId' },
      { input: { runId: '../x' }, path: 'runId' },
    ],
    'runs:list': [{ input: { all: true }, path: '(input)' }],
    'runs:get': [
      { input: { runId: 'r', afterSeq: -1 }, path: 'afterSeq' },
      { input: { runId: 'r', afterSeq: 1.5 }, path: 'afterSeq' },
      { input: { runId: 'r', limit: 0 }, path: 'limit' },
      { input: { runId: 'r', limit: '10' }, path: 'limit' },
    ],
    'runs:export': [{ input: { runId: '' }, path: 'runId' }],
    'runs:import': [
      { input: { content: '' }, path: 'content' },
      { input: { content: 42 }, path: 'content' },
    ],
    'runs:diff': [
      { input: { a: 'r' }, path: 'b' },
      { input: { a: 'r', b: '../x' }, path: 'b' },
    ],
    'runs:steps': [
      { input: { runId: 'r', from: -1, to: 2 }, path: 'from' },
      { input: { runId: 'r', from: 0, to: 1.5 }, path: 'to' },
      { input: { runId: '../x', from: 0, to: 1 }, path: 'runId' },
      { input: { runId: 'r', from: 5, to: 2 }, path: 'to' },
      { input: { runId: 'r', from: 0, to: 501 }, path: 'to' },
    ],
    'runs:compare': [
      { input: { runIds: ['r'] }, path: 'runIds' },
      { input: { runIds: Array.from({ length: 13 }, (_, i) => `r${i}`) }, path: 'runIds' },
      { input: { runIds: ['r', '/etc/passwd'] }, path: 'runIds.1' },
    ],
    'runs:fork': [
      { input: { runId: 'r' }, path: 'step' },
      { input: { runId: 'r', step: 0 }, path: 'step' },
      { input: { runId: '../r', step: 2 }, path: 'runId' },
      { input: { runId: 'r', step: 2, agentModel: '' }, path: 'agentModel' },
    ],
    'runs:resume': [{ input: { runId: '..' }, path: 'runId' }],
    'runs:continue': [
      { input: { runId: 'r' }, path: 'message' },
      { input: { runId: 'r', message: '  \n ' }, path: 'message' },
      { input: { runId: '../r', message: 'go on' }, path: 'runId' },
      { input: { runId: 'r', message: 'go on', maxSteps: 0 }, path: 'maxSteps' },
    ],
    'runs:checkpoints': [{ input: {}, path: 'runId' }],
    'runs:rename': [
      { input: { runId: 'r' }, path: 'title' },
      { input: { runId: '..', title: 'x' }, path: 'runId' },
    ],
    'runs:delete': [{ input: { runId: '../r' }, path: 'runId' }],
    'runs:image': [
      { input: { runId: 'r', ref: `../${'a'.repeat(64)}.png` }, path: 'ref' },
      { input: { runId: 'r', ref: `/etc/${'a'.repeat(64)}.png` }, path: 'ref' },
      { input: { runId: 'r', ref: `${'a'.repeat(64)}.svg` }, path: 'ref' },
      { input: { runId: '../r', ref: `${'a'.repeat(64)}.png` }, path: 'runId' },
    ],
    'runs:files': [
      { input: { runId: 'r', step: -1 }, path: 'step' },
      { input: { runId: '../r', step: 1 }, path: 'runId' },
    ],
    'runs:file': [
      { input: { runId: 'r', step: 1, path: '../../etc/passwd' }, path: 'path' },
      { input: { runId: 'r', step: 1, path: '/etc/passwd' }, path: 'path' },
      { input: { runId: 'r', step: 1, path: 'a/./b' }, path: 'path' },
      { input: { runId: 'r', step: 1, path: 'a\0b' }, path: 'path' },
      { input: { runId: 'r', step: 1, path: '' }, path: 'path' },
    ],
    'runs:changes': [
      { input: { runId: 'r' }, path: 'to' },
      { input: { runId: 'r', to: 2, from: 1.5 }, path: 'from' },
    ],
    'runs:workspaces-first': [
      { input: { a: 'r', b: 'r' }, path: 'pairs' },
      {
        input: { a: 'r', b: 'r', pairs: [{ row: 0, stepA: -1, stepB: 1 }] },
        path: 'pairs.0.stepA',
      },
    ],
    'runs:files-live': [
      { input: { runId: '../r' }, path: 'runId' },
      { input: { runId: 'r', step: 1 }, path: '(input)' },
    ],
    'runs:file-live': [
      { input: { runId: 'r', path: '../../etc/passwd' }, path: 'path' },
      { input: { runId: 'r', path: '/etc/passwd' }, path: 'path' },
      { input: { runId: 'r', path: 'a\0b' }, path: 'path' },
      { input: { runId: 'r', path: 'a', download: 'yes' }, path: 'download' },
    ],
    'runs:change-counts': [
      { input: {}, path: 'runId' },
      { input: { runId: 'r', step: 1 }, path: '(input)' },
    ],
    'runs:patch': [
      { input: { runId: 'r', to: 'last' }, path: 'to' },
      { input: { runId: 'r', extra: 1 }, path: '(input)' },
    ],
    'runs:workspaces-diff': [
      { input: { a: 'r' }, path: 'b' },
      { input: { a: 'r', b: '../s' }, path: 'b' },
      { input: { a: 'r', b: 's', stepA: -1 }, path: 'stepA' },
      { input: { a: 'r', b: 's', stepB: 'end' }, path: 'stepB' },
    ],
    'sandbox:exec': [
      { input: { runId: 'r', command: '   ' }, path: 'command' },
      { input: { runId: 'r', command: 'x'.repeat(10_001) }, path: 'command' },
      { input: { runId: '../r', command: 'ls' }, path: 'runId' },
      { input: { runId: 'r' }, path: 'command' },
    ],
    'sandbox:commands': [{ input: { runId: '../r' }, path: 'runId' }],
    'config:get': [{ input: { agent: 'manus' }, path: '(input)' }],
    'config:save': [
      { input: { target: 'root' }, path: 'target' },
      { input: { target: 'manus', llm: { temperature: 'hot' } }, path: 'llm.temperature' },
      { input: { target: 'manus', llm: { colour: 'red' } }, path: 'llm' },
      { input: { target: 'manus', llm: { max_concurrency: 1.5 } }, path: 'llm.max_concurrency' },
      { input: { target: 'default', settings: { max_steps: 3 } }, path: 'settings' },
      { input: { target: 'manus', apiKey: { action: 'set', value: ' ' } }, path: 'apiKey.value' },
      { input: { target: 'manus', apiKey: { action: 'env', name: '1 x' } }, path: 'apiKey.name' },
      { input: { target: 'manus', apiKey: { action: 'steal' } }, path: 'apiKey.action' },
    ],
    'config:import-openmanus': [{ input: { content: null }, path: 'content' }],
    'config:test-connection': [
      { input: { target: 'manus', llm: { model: 5 } }, path: 'llm.model' },
      { input: { target: 'profile:../x' }, path: 'target' },
    ],
    'config:profile': [
      { input: { action: 'create', name: '../x' }, path: 'name' },
      { input: { action: 'rename', name: 'fast' }, path: 'to' },
      { input: { action: 'assign', agent: 'root', profile: 'fast' }, path: 'agent' },
    ],
    'human:answer': [
      { input: { runId: 'r', toolCallId: '', answer: 'a' }, path: 'toolCallId' },
      { input: { runId: 'r', toolCallId: 't' }, path: 'answer' },
    ],
    'sandbox:status': [{ input: { sessionId: 'a b' }, path: 'sessionId' }],
    'run:preflight': [
      { input: { agent: 'root' }, path: 'agent' },
      { input: { workspace: { path: 'relative/dir', mode: 'mount' } }, path: 'workspace.path' },
      { input: { workspace: { path: '/tmp', mode: 'steal' } }, path: 'workspace.mode' },
    ],
    'sandbox:images': [{ input: { all: true }, path: '(input)' }],
    'config:save-sections': [
      { input: { sandbox: { image: 5 } }, path: 'sandbox.image' },
      { input: { sandbox: { privileged: true } }, path: 'sandbox' },
      { input: { mcp: { servers: { 'bad name': null } } }, path: 'mcp.servers.bad name' },
      { input: { mcp: { servers: { a: { type: 'ftp' } } } }, path: 'mcp.servers.a.type' },
    ],
    'mcp:test': [
      { input: { name: 'x' }, path: 'server' },
      { input: { name: '', server: { type: 'stdio' } }, path: 'name' },
    ],
    'mcp:prompts': [
      { input: { server: 'a b' }, path: 'server' },
      { input: { all: true }, path: '(input)' },
    ],
    'dialog:pick-folder': [{ input: { path: '/' }, path: '(input)' }],
    'debug:pause': [{ input: { runId: '' }, path: 'runId' }],
    'debug:resume': [{ input: { runId: 'r', mode: 'fast' }, path: '(input)' }],
    'debug:step': [{ input: { runId: 'r', scope: 'all' }, path: 'scope' }],
    'debug:set-breakpoint': [
      { input: { runId: 'r', spec: 'loop' }, path: 'spec' },
      { input: { runId: 'r', spec: 'step:0' }, path: 'spec' },
    ],
    'debug:clear-breakpoint': [{ input: { runId: 'r', id: '1' }, path: 'id' }],
    'debug:set-approval': [{ input: { runId: 'r', tools: ['rm -rf'] }, path: 'tools.0' }],
    'debug:edit': [
      { input: { runId: 'r', edit: { kind: 'rewrite' } }, path: 'edit.kind' },
      {
        input: { runId: 'r', edit: { kind: 'add_message', role: 'system', content: 'x' } },
        path: 'edit.role',
      },
      { input: { runId: 'r', edit: { kind: 'change_model' } }, path: 'edit' },
      {
        input: { runId: 'r', edit: { kind: 'change_model', temperature: 3 } },
        path: 'edit.temperature',
      },
      {
        input: { runId: 'r', edit: { kind: 'edit_message', index: -1, content: '' } },
        path: 'edit.index',
      },
    ],
    'batch:start': [
      {
        input: { agent: 'swe', tasks: [], profiles: [], repeat: 1, concurrency: 1 },
        path: 'tasks',
      },
      {
        input: {
          agent: 'swe',
          tasks: [{ task: 'x' }],
          profiles: ['../x'],
          repeat: 1,
          concurrency: 1,
        },
        path: 'profiles.0',
      },
      {
        input: { agent: 'swe', tasks: [{ task: 'x' }], profiles: [], repeat: 0, concurrency: 1 },
        path: 'repeat',
      },
      {
        input: { agent: 'swe', tasks: [{ task: 'x' }], profiles: [], repeat: 1, concurrency: 1000 },
        path: 'concurrency',
      },
    ],
    'batch:stop': [{ input: { batchId: '../x' }, path: 'batchId' }],
    'batch:resume': [{ input: {}, path: 'batchId' }],
    'batch:get': [{ input: { batchId: '..' }, path: 'batchId' }],
    'batch:list': [{ input: { all: true }, path: '(input)' }],
    'gateway:status': [{ input: { port: 1 }, path: '(input)' }],
    'telemetry:status': [{ input: { reset: true }, path: '(input)' }],
    'gateway:set': [
      { input: { isOn: 'yes' }, path: 'isOn' },
      { input: { isOn: true, profile: '../x' }, path: 'profile' },
      { input: { isOn: true, token: 'mine' }, path: '(input)' },
    ],
    'playground:open': [
      { input: { runId: '../x', seq: 1 }, path: 'runId' },
      { input: { runId: 'r', seq: 0 }, path: 'seq' },
    ],
    'playground:send': [
      {
        input: { sendId: 's', body: { messages: [{}] }, profile: 'default', samples: 1 },
        path: 'body.model',
      },
      {
        input: { sendId: 's', body: { model: 'm', messages: [] }, profile: 'default', samples: 1 },
        path: 'body.messages',
      },
      {
        input: {
          sendId: 's',
          body: { model: 'm', messages: [{}], stream: true },
          profile: 'default',
          samples: 1,
        },
        path: 'body',
      },
      {
        input: {
          sendId: 's',
          body: { model: 'm', messages: [{}] },
          profile: 'default',
          samples: 11,
        },
        path: 'samples',
      },
      {
        input: { sendId: 's', body: { model: 'm', messages: [{}] }, profile: '../x', samples: 1 },
        path: 'profile',
      },
    ],
    'playground:save-prompt': [
      { input: { runId: 'r', systemPrompt: '  ' }, path: 'systemPrompt' },
      { input: { runId: 'r', systemPrompt: 'x', extra: 1 }, path: '(input)' },
    ],
    'agents:list': [{ input: { all: true }, path: '(input)' }],
    'agents:get': [{ input: { name: '../x' }, path: 'name' }],
    'agents:tools': [{ input: { server: 'x' }, path: '(input)' }],
    'agents:validate': [
      { input: { definition: { name: 'x' } }, path: 'definition.description' },
      { input: {}, path: 'definition' },
    ],
    'agents:save': [{ input: { name: 'a/b', definition: {} }, path: 'name' }],
    'agents:create': [
      { input: { name: '' }, path: 'name' },
      { input: { name: 'x', from: '../manus.toml' }, path: 'from' },
    ],
    'agents:rename': [{ input: { name: 'x', to: '.hidden' }, path: 'to' }],
    'agents:delete': [{ input: { name: 'x y' }, path: 'name' }],
    'agents:import': [{ input: { content: '' }, path: 'content' }],
    'agents:export': [{ input: { ref: '/etc/passwd' }, path: 'ref' }],
    'datasets:list': [{ input: { all: true }, path: '(input)' }],
    'datasets:get': [{ input: { name: '../etc' }, path: 'name' }],
    'datasets:save': [
      { input: { name: 'd', items: [{ id: 'a', task: '' }] }, path: 'items.0.task' },
      { input: { name: 'd', items: [{ id: 'a', task: 't', extra: 1 }] }, path: 'items.0' },
    ],
    'datasets:add-runs': [
      { input: { name: 'd', runIds: [] }, path: 'runIds' },
      { input: { name: 'd', runIds: ['../x'] }, path: 'runIds.0' },
    ],
    'experiments:list': [{ input: { all: true }, path: '(input)' }],
    'experiments:get': [{ input: { experimentId: '..' }, path: 'experimentId' }],
    'experiments:start': [
      {
        input: { name: 'e', dataset: 'd', variants: [], repeats: 1, scorers: [], concurrency: 1 },
        path: 'variants',
      },
      {
        input: {
          name: 'e',
          dataset: 'd',
          variants: [{ name: 'A', agent: 'swe' }],
          repeats: 1,
          scorers: [{ name: 's', kind: 'vibes' }],
          concurrency: 1,
        },
        path: 'scorers.0.kind',
      },
    ],
    'experiments:resume': [{ input: {}, path: 'experimentId' }],
    'experiments:stop': [{ input: { experimentId: 3 }, path: 'experimentId' }],
    'experiments:trend': [{ input: { datasetPath: '' }, path: 'datasetPath' }],
  };
  /** wrong shapes every entry must refuse */
  const GENERIC: unknown[] = [undefined, null, 42, 'text', [], [{}]];

  it('answers each malformed request with invalid_input naming the field, and stays up', async () => {
    const { host } = await serve();
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers = new Map<number, WsServerFrame>();
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as WsServerFrame;
      if (frame.kind === 'response') answers.set(frame.id, frame);
    });
    expect(Object.keys(MALFORMED).sort()).toEqual([...REQUEST_CHANNELS].sort());
    const cases: { id: number; channel: string; path: string | null }[] = [];
    for (const channel of REQUEST_CHANNELS) {
      const inputs = [...MALFORMED[channel], ...GENERIC.map((input) => ({ input, path: null }))];
      for (const { input, path } of inputs) {
        const id = cases.length + 1;
        cases.push({ id, channel, path });
        ws.send(JSON.stringify({ kind: 'request', id, channel, input }));
      }
    }
    await until(() => answers.size === cases.length);
    for (const c of cases) {
      const frame = answers.get(c.id);
      expect(frame, `${c.channel} #${c.id}`).toMatchObject({
        result: { ok: false, error: { code: 'invalid_input' } },
      });
      if (c.path && frame?.kind === 'response' && !frame.result.ok) {
        expect(
          frame.result.error.issues?.map((i) => i.path),
          `${c.channel} #${c.id}`,
        ).toContain(c.path);
      }
    }
    // unknown channels are refused, the connection stays; a frame that is not our
    // protocol closes that connection (1007) and only that one
    ws.send(JSON.stringify({ kind: 'request', id: 9001, channel: 'fs:read', input: {} }));
    ws.send(JSON.stringify({ kind: 'request', id: 9002, channel: 'runs:list', input: {} }));
    await until(() => answers.has(9002));
    expect(answers.get(9001)).toMatchObject({
      result: { ok: false, error: { code: 'not_found' } },
    });
    expect(answers.get(9002)).toMatchObject({ result: { ok: true, value: [] } });
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    ws.send('{not json');
    expect(await closed).toBe(1007);
    const again = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
    await new Promise((resolve, reject) => again.once('open', resolve).once('error', reject));
    const answer = new Promise<WsServerFrame>((resolve) =>
      again.once('message', (data) => resolve(JSON.parse(data.toString()) as WsServerFrame)),
    );
    again.send(JSON.stringify({ kind: 'request', id: 1, channel: 'runs:list', input: {} }));
    expect(await answer).toMatchObject({ kind: 'response', id: 1, result: { ok: true } });
    again.close();
  });
});
