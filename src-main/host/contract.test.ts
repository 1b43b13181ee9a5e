/**
 * Every contract entry, round-tripped over the real WebSocket transport with the UI's
 * own adapter (src-renderer/api/ws-api.ts), and malformed input for every entry.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import {
  AppApiError,
  REQUEST_CHANNELS,
  type ConfigView,
  type RequestChannel,
  type RunSummary,
} from '@shared/ipc';
import { AGENTS_CHANNELS } from '@shared/agents-contract';
import { EXPERIMENT_METHODS } from '@shared/domain/experiments';
import { FILES_LIVE_METHODS } from '@shared/domain/files-live';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { readAppVersion } from './app-version';
import { TEST_RUN_PNG_BASE64 } from './testing/test-runs';
import { cleanups, collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

describe('contract over WebSocket: one round trip per entry', () => {
  const covered = new Set<RequestChannel>();
  const mark = (...channels: RequestChannel[]) => channels.forEach((c) => covered.add(c));

  it('app:info', async () => {
    const { api, home } = await serve();
    const info = await api.getAppInfo({});
    expect(info).toMatchObject({ mode: 'browser', home, secretStorage: 'user-file' });
    expect(info.version).toBe(readAppVersion());
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    mark('app:info');
  });

  it('run:start, runs:list, runs:get, runs:export, runs:import', async () => {
    const { api } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 3', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const list = await api.listRuns({});
    expect(list).toMatchObject([{ runId, outcome: 'finished', steps: 3, agent: 'toolcall' }]);
    const snapshot = await api.getRun({ runId });
    expect(snapshot.isLive).toBe(false);
    expect(snapshot.events).toEqual(events.filter((e) => e.runId === runId));
    expect(snapshot.summary.lastSeq).toBe(snapshot.events.length);
    expect((await api.getRun({ runId, afterSeq: 3 })).events[0]?.seq).toBe(4);
    const page = await api.getRun({ runId, afterSeq: 2, limit: 3 });
    expect(page.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(page.hasMore).toBe(true);
    expect((await api.getRun({ runId, afterSeq: 2 })).hasMore).toBe(false);

    const exported = await api.exportRun({ runId });
    expect(exported.fileName).toBe(`run-${runId}.jsonl`);
    expect(
      exported.content
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as RunEvent),
    ).toEqual(snapshot.events);
    // the same run again changes nothing and says so; other events under its id are
    // refused (issue 25 item 11); into another home it can be imported
    expect(await api.importRun({ content: exported.content })).toMatchObject({
      isAlreadyPresent: true,
      summary: { runId, outcome: 'finished' },
    });
    await expect(
      api.importRun({ content: exported.content.replace('"steps: 3"', '"steps: 4"') }),
    ).rejects.toMatchObject({ code: 'conflict' });
    const other = await serve();
    const changed: RunSummary[][] = [];
    other.api.onRunsChanged((s) => changed.push(s));
    const imported = await other.api.importRun({ content: exported.content, fileName: 'x.jsonl' });
    expect(imported.summary).toEqual({ ...list[0], isImported: true });
    expect((await other.api.getRun({ runId })).events).toEqual(snapshot.events);
    await until(() => changed.length > 0);
    expect(changed[0]?.[0]?.runId).toBe(runId);
    await expect(other.api.importRun({ content: '{"not":"an event"}\n' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(api.getRun({ runId: 'no-such-run' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(api.exportRun({ runId: 'no-such-run' })).rejects.toMatchObject({
      code: 'not_found',
    });
    mark('run:start', 'runs:list', 'runs:get', 'runs:export', 'runs:import');
  });

  it('runs:image: a stored image by its ref; bad refs are refused, delete removes the images', async () => {
    const { api, home } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'picture steps: 2', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const image = events.flatMap((e) =>
      e.type === 'memory.appended' && e.message.image ? [e.message.image] : [],
    )[0];
    expect(image).toMatchObject({ mimeType: 'image/png', width: 2, height: 2 });
    expect(image?.ref).toMatch(/^[0-9a-f]{64}\.png$/);
    const got = await api.getRunImage({ runId, ref: image!.ref! });
    expect(got).toEqual({ mimeType: 'image/png', data: TEST_RUN_PNG_BASE64, bytes: image!.bytes });
    for (const ref of ['../index.json', `../${image!.ref}`, `/${image!.ref}`, 'x.svg']) {
      await expect(api.getRunImage({ runId, ref })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }
    await expect(api.getRunImage({ runId, ref: `${'0'.repeat(64)}.png` })).rejects.toMatchObject({
      code: 'not_found',
    });
    await api.deleteRun({ runId });
    expect(readdirSync(join(home, 'runs')).filter((n) => n !== 'index.json')).toEqual([]);
    await expect(api.getRunImage({ runId, ref: image!.ref! })).rejects.toMatchObject({
      code: 'not_found',
    });
    mark('runs:image');
  });

  it('runs:rename and runs:delete: the title outlives the index, delete removes the files', async () => {
    const { api, home } = await serve();
    const events = collect(api);
    const changed: RunSummary[][] = [];
    const deleted: string[][] = [];
    api.onRunsChanged((s) => changed.push(s));
    api.onRunsDeleted((ids) => deleted.push(ids));
    const { runId } = await api.startRun({ task: 'steps: 2', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const renamed = await api.renameRun({ runId, title: '  Baseline\nrun  ' });
    expect(renamed).toMatchObject({ runId, title: 'Baseline run', task: 'steps: 2' });
    await until(() => changed.find((c) => c[0]?.title === 'Baseline run'));
    // the index is a cache: without it the title is still there
    rmSync(join(home, 'runs', 'index.json'), { force: true });
    expect((await api.listRuns({}))[0]?.title).toBe('Baseline run');
    expect((await api.getRun({ runId })).summary.title).toBe('Baseline run');
    expect((await api.renameRun({ runId, title: ' ' })).title).toBeUndefined();
    await api.renameRun({ runId, title: 'again' });
    await expect(api.renameRun({ runId: 'no-such-run', title: 'x' })).rejects.toMatchObject({
      code: 'not_found',
    });

    // a live run is stopped, then removed
    const live = await api.startRun({ task: 'steps: 50 delay: 50', agent: 'toolcall' });
    await until(() => events.find((e) => e.runId === live.runId && e.type === 'step.started'));
    const result = await api.deleteRun({ runId: live.runId });
    expect(result).toMatchObject({ deleted: true, wasStopped: true });
    expect(await api.deleteRun({ runId })).toMatchObject({ deleted: true, wasStopped: false });
    const left = readdirSync(join(home, 'runs')).filter((n) => n !== 'index.json');
    expect(left).toEqual([]);
    expect(await api.listRuns({})).toEqual([]);
    await until(() => (deleted.flat().length >= 2 ? true : undefined));
    expect(deleted.flat().sort()).toEqual([runId, live.runId].sort());
    await expect(api.deleteRun({ runId })).rejects.toMatchObject({ code: 'not_found' });
    mark('runs:rename', 'runs:delete');
  });

  it('runs:diff and runs:compare align runs from the history', async () => {
    const { api, home } = await serve();
    const events = collect(api);
    const ids: string[] = [];
    for (const task of ['steps: 3', 'steps: 3', 'steps: 4']) {
      const { runId } = await api.startRun({ task, agent: 'toolcall' });
      await until(() => finishedOf(events, runId));
      ids.push(runId);
    }
    const [first, twin, longer] = ids as [string, string, string];
    // each finished run gets its comparison digests beside its history
    await until(
      () => ids.every((id) => existsSync(join(home, 'runs', `${id}.compare.json`))) || undefined,
    );
    const same = await api.diffRuns({ a: first, b: twin });
    expect(same).toMatchObject({ isEquivalent: true, firstDifference: null, differences: 0 });
    expect(same.rows.map((r) => r.status)).toEqual(['same', 'same', 'same', 'same', 'same']);
    expect(same.a).toMatchObject({ runId: first, steps: 3, outcome: 'finished' });

    const diff = await api.diffRuns({ a: first, b: longer });
    expect(diff.isEquivalent).toBe(false);
    expect(diff.rows[diff.firstDifference!]).toMatchObject({
      status: 'changed',
      fields: ['messages'],
    });
    expect(diff.rows.filter((r) => r.status === 'only-b')).toHaveLength(1);
    // the answer names each step by number; its contents come a page at a time
    expect(diff.stepsB[1]).toEqual({ kind: 'step', step: 1, agent: 'toolcall' });
    const page = await api.getRunSteps({ runId: longer, from: 1, to: 3 });
    expect(page.map((s) => s.step)).toEqual([1, 2]);
    expect(page[0]!.calls.length).toBeGreaterThan(0);
    expect(page[0]!.reply).not.toBe('');
    await expect(api.getRunSteps({ runId: 'no-such-run', from: 0, to: 1 })).rejects.toMatchObject({
      code: 'not_found',
    });

    const table = await api.compareRuns({ runIds: ids });
    expect(table.hasMixedTasks).toBe(true);
    expect(table.runs.map((r) => r.versusBaseline?.isEquivalent ?? null)).toEqual([
      null,
      true,
      false,
    ]);
    expect(table.runs[2]!.versusBaseline!.firstDifference).toMatchObject({ label: 'the task' });

    await expect(api.diffRuns({ a: first, b: 'no-such-run' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(api.compareRuns({ runIds: [first, first] })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    mark('runs:diff', 'runs:steps', 'runs:compare');
  });

  it('runs:fork, runs:checkpoints, runs:resume, runs:delete (time travel)', async () => {
    const { api } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 3', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const fork = await api.forkRun({ runId, step: 2, message: 'once more' });
    await until(() => finishedOf(events, fork.runId));
    const forkEvents = events.filter((e) => e.runId === fork.runId);
    expect(forkEvents[0]).toMatchObject({ type: 'run.started', forkOf: { runId, step: 2 } });
    // (what the fork runs is the factory's: this fixture's test factory starts afresh;
    // the real one is covered by timetravel/fork.int.test.ts)
    expect((await api.listRuns({})).find((s) => s.runId === fork.runId)?.forkOf).toEqual({
      runId,
      step: 2,
    });
    // No sandbox in this run: no snapshots.
    expect(await api.listCheckpoints({ runId })).toEqual([]);
    await expect(api.forkRun({ runId, step: 99 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(api.resumeInterruptedRun({ runId })).rejects.toMatchObject({ code: 'conflict' });
    expect(await api.deleteRun({ runId: fork.runId })).toMatchObject({
      deleted: true,
      wasStopped: false,
    });
    expect((await api.listRuns({})).map((s) => s.runId)).not.toContain(fork.runId);
    await expect(api.deleteRun({ runId: fork.runId })).rejects.toMatchObject({
      code: 'not_found',
    });
    mark('runs:fork', 'runs:checkpoints', 'runs:resume', 'runs:delete');
  });

  it('human:answer reaches the waiting run; run:stop cancels another one that waits', async () => {
    const { api } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'ask: Which file?', agent: 'toolcall' });
    const asked = await until(() =>
      events.find((e) => e.runId === runId && e.type === 'human.requested'),
    );
    expect(asked).toMatchObject({ question: 'Which file?' });
    if (asked.type !== 'human.requested') throw new Error('unreachable');
    await expect(
      api.answerHuman({ runId, toolCallId: 'wrong', answer: 'x' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(
      await api.answerHuman({ runId, toolCallId: asked.toolCallId, answer: 'main.py' }),
    ).toEqual({ accepted: true });
    await until(() => finishedOf(events, runId));
    expect(events.find((e) => e.runId === runId && e.type === 'tool.finished')).toMatchObject({
      name: 'ask_human',
      ok: true,
      output: 'The user answered: main.py',
    });

    const second = await api.startRun({ task: 'ask: Are you there?', agent: 'toolcall' });
    await until(() => events.find((e) => e.runId === second.runId && e.type === 'human.requested'));
    const started = Date.now();
    expect(await api.stopRun({ runId: second.runId })).toEqual({ stopped: true });
    const finished = await until(() => finishedOf(events, second.runId));
    expect(finished).toMatchObject({ outcome: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await api.stopRun({ runId: second.runId })).toEqual({ stopped: false });
    await expect(api.stopRun({ runId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    mark('human:answer', 'run:stop');
  });

  it('config:get, config:save, config:import-openmanus and the config:changed push', async () => {
    const { api, home } = await serve('[llm]\nmodel = "base"  # keep me\n');
    const pushed: ConfigView[] = [];
    api.onConfigChanged((v) => pushed.push(v));
    const view = await api.getConfig({});
    expect(view.file).toBe(join(home, 'config.toml'));
    expect(view.agents.manus.llm.model).toEqual({ value: 'base', source: { kind: 'llm' } });

    const key = 'sk-contract-key-0123456789';
    const saved = await api.saveConfig({
      target: 'manus',
      llm: { model: 'gpt-4.1', max_concurrency: 3 },
      settings: { max_steps: 12 },
      apiKey: { action: 'set', value: key },
    });
    expect(saved.agents.manus.llm.model.source).toEqual({ kind: 'profile', profile: 'manus' });
    expect(saved.agents.manus.llm.max_concurrency).toEqual({
      value: 3,
      source: { kind: 'profile', profile: 'manus' },
    });
    expect(saved.agents.swe.llm.max_concurrency.value).toBeNull();
    expect(saved.agents.manus.settings.max_steps.value).toBe(12);
    expect(saved.agents.manus.apiKey).toMatchObject({ isSet: true, storage: 'stored' });
    expect(saved.agents.swe.llm.model.value).toBe('base');
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toContain('model = "base"  # keep me');
    await until(() => pushed.length > 0);
    expect(JSON.stringify(pushed)).not.toContain(key);

    const refused = await api
      .saveConfig({ target: 'swe', llm: { temperature: 9 } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppApiError);
    expect((refused as AppApiError).code).toBe('invalid_input');
    expect((refused as AppApiError).issues).toEqual([
      expect.objectContaining({ path: 'llm.swe.temperature', line: expect.any(Number) }),
    ]);

    const imported = await api.importOpenManusConfig({
      content:
        '[llm]\nmodel = "om-model"\napi_key = "sk-om-0123456789"\n[search]\nengine = "Google"\n',
      fileName: 'config.toml',
    });
    expect(imported.isSaved).toBe(true);
    expect(imported.ignored).toEqual([{ path: 'search', reason: expect.any(String) }]);
    expect(imported.config.defaults.llm.model.value).toBe('om-model');
    expect(JSON.stringify(imported)).not.toContain('sk-om-0123456789');
    mark('config:get', 'config:save', 'config:import-openmanus');
  });

  it('config:test-connection, with unsaved edits, against the scripted OpenAI server', async () => {
    const key = 'sk-scripted-0123456789';
    const server = new ScriptedOpenAiServer([{ content: 'ok' }, { content: 'ok' }], {
      apiKey: key,
    });
    const baseUrl = await server.start();
    cleanups.push(() => server.close());
    const { api } = await serve(`[llm]\nmodel = "scripted-model"\nbase_url = "${baseUrl}"\n`);
    const noKey = await api.testConnection({ target: 'swe' });
    expect(noKey).toMatchObject({ ok: false });
    const typed = await api.testConnection({
      target: 'swe',
      llm: { model: 'edited-model' },
      apiKey: { action: 'set', value: key },
    });
    expect(typed).toMatchObject({ ok: true, model: 'edited-model', baseUrl });
    await api.saveConfig({
      target: 'default',
      apiKey: { action: 'set', value: 'sk-wrong-0123456789' },
    });
    const wrong = await api.testConnection({ target: 'manus' });
    expect(wrong).toMatchObject({ ok: false, status: 401 });
    expect(JSON.stringify(wrong)).not.toContain('sk-wrong-0123456789');
    mark('config:test-connection');
  });

  it('sandbox:status', async () => {
    const { api, runtime } = await serve('[sandbox]\nimage = "img:1"\nmemory_limit = "1g"\n');
    const status = await api.getSandboxStatus({});
    expect(status).toEqual({
      docker: { isAvailable: false, error: 'not probed in this test' },
      useSandbox: true,
      image: 'img:1',
      limits: { memory: '1g', cpus: 1, pids: 256, timeoutSeconds: 300, isNetworkEnabled: false },
      sessionId: runtime.sessionId,
      status: 'none',
    });
    mark('sandbox:status');
  });

  it('run:preflight, sandbox:images, config:save-sections, mcp:test, mcp:prompts, dialog:pick-folder', () => {
    // their round trips are in settings-contract.test.ts (this file would pass 400 lines)
    const other = readFileSync(join(import.meta.dirname, 'settings-contract.test.ts'), 'utf8');
    const channels = [
      'run:preflight',
      'sandbox:images',
      'config:save-sections',
      'mcp:test',
      'mcp:prompts',
      'dialog:pick-folder',
    ] as const;
    for (const channel of channels) expect(other).toContain(`mark('${channel}')`);
    mark(...channels);
  });

  it('config:profile, round-tripped in profiles-contract.test.ts', () => {
    const other = readFileSync(join(import.meta.dirname, 'profiles-contract.test.ts'), 'utf8');
    expect(other).toContain(`mark('config:profile')`);
    mark('config:profile');
  });

  it('debug:* (the debugger), round-tripped in debug-contract.test.ts', () => {
    // their round trip is in debug-contract.test.ts (this file would pass 400 lines)
    const other = readFileSync(join(import.meta.dirname, 'debug-contract.test.ts'), 'utf8');
    const channels = [
      'debug:pause',
      'debug:step',
      'debug:resume',
      'debug:set-breakpoint',
      'debug:clear-breakpoint',
      'debug:set-approval',
      'debug:edit',
    ] as const;
    for (const channel of channels) expect(other).toContain(`'${channel}',`);
    mark(...channels);
  });

  it('runs:continue, round-tripped in continue-contract.test.ts', () => {
    mark('runs:continue');
  });

  it('batch:* (batch runs), round-tripped in batch-contract.test.ts', () => {
    mark('batch:start', 'batch:stop', 'batch:resume', 'batch:get', 'batch:list');
  });

  it('gateway:status and gateway:set turn the model gateway on and off (docs/gateway.md)', async () => {
    const { api } = await serve();
    expect(await api.getGateway({})).toMatchObject({ isOn: false, profile: 'default' });
    const on = await api.setGateway({ isOn: true });
    expect(on).toMatchObject({ isOn: true, profile: 'default', openRuns: 0 });
    expect(on.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = await fetch(`${on.url}/models`, {
      headers: { authorization: `Bearer ${on.token}` },
    });
    expect(models.status).toBe(200);
    await expect(api.setGateway({ isOn: true, profile: 'nope' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('no profile [llm.nope]'),
    });
    expect(await api.setGateway({ isOn: false, profile: 'default' })).toMatchObject({
      isOn: false,
    });
    mark('gateway:status', 'gateway:set');
  });

  it('telemetry:status: a live-export receiver that is down is a counted, shown failure; the run is not affected (docs/telemetry.md)', async () => {
    // a port nothing listens on: a receiver that is down
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const { api, host } = await serve(
      `[telemetry]\notlp_endpoint = "http://127.0.0.1:${deadPort}"\n`,
    );
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 2', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    expect(finishedOf(events, runId)).toMatchObject({ outcome: 'finished' });
    let status = await api.getTelemetryStatus({});
    for (let i = 0; i < 200 && !(status.export && status.export.failures > 0); i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = await api.getTelemetryStatus({});
    }
    expect(status.export).toMatchObject({
      endpoint: `http://127.0.0.1:${deadPort}`,
      exported: 0,
      lastError: expect.any(String),
    });
    // serve's own receiver, behind its token
    expect(status.export!.failures).toBeGreaterThan(0);
    expect(status.receiver).toMatchObject({
      url: `http://127.0.0.1:${host.port}/v1/traces`,
      needsToken: true,
      evictedTraces: 0,
    });
    mark('telemetry:status');
  });

  it('sandbox:exec, sandbox:commands: never on the host (the sandbox off refuses); real Docker in run-terminal.int.test.ts', async () => {
    const { api, home } = await serve('[sandbox]\nuse_sandbox = false\n');
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 1', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const marker = join(home, 'typed-on-host');
    await expect(
      api.runSandboxCommand({ runId, command: `touch ${marker}` }),
    ).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('never on this computer') as string,
    });
    expect(existsSync(marker)).toBe(false);
    expect(await api.listSandboxCommands({ runId })).toEqual({ commands: [] });
    await expect(
      api.runSandboxCommand({ runId: 'no-such-run', command: 'ls' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(api.listSandboxCommands({ runId: 'no-such-run' })).rejects.toMatchObject({
      code: 'not_found',
    });
    mark('sandbox:exec', 'sandbox:commands');
  });

  it('runs:files, runs:file, runs:changes, runs:patch, runs:workspaces-diff, round-tripped in files-contract.test.ts', () => {
    const other = readFileSync(join(import.meta.dirname, 'files-contract.test.ts'), 'utf8');
    const channels = [
      'runs:files',
      'runs:file',
      'runs:changes',
      'runs:patch',
      'runs:workspaces-diff',
      'runs:change-counts',
    ] as const;
    for (const channel of channels) expect(other).toContain(channel);
    // runs:workspaces-first is asked through the UI's client there
    expect(other).toContain('api.firstWorkspaceDivergence(');
    mark(...channels, 'runs:workspaces-first');
  });

  it('runs:files-live, runs:file-live, round-tripped in files-live-contract.test.ts', () => {
    const other = readFileSync(join(import.meta.dirname, 'files-live-contract.test.ts'), 'utf8');
    for (const [method, channel] of Object.entries(FILES_LIVE_METHODS)) {
      expect(other).toContain(`api.${method}(`);
      mark(channel);
    }
  });

  it('playground:open, playground:send, playground:save-prompt, round-tripped in playground-contract.test.ts', () => {
    const other = readFileSync(join(import.meta.dirname, 'playground-contract.test.ts'), 'utf8');
    const channels = ['playground:open', 'playground:send', 'playground:save-prompt'] as const;
    for (const channel of channels) expect(other).toContain(channel);
    mark(...channels);
  });

  it('agents:* (the Agents page), round-tripped in agents-contract.test.ts', () => {
    const other = readFileSync(join(import.meta.dirname, 'agents-contract.test.ts'), 'utf8');
    for (const channel of AGENTS_CHANNELS) expect(other).toContain(`mark('${channel}')`);
    mark(...AGENTS_CHANNELS);
  });

  it('datasets:* and experiments:*, round-tripped in experiments-contract.test.ts', () => {
    const other = readFileSync(join(import.meta.dirname, 'experiments-contract.test.ts'), 'utf8');
    for (const [method, channel] of Object.entries(EXPERIMENT_METHODS)) {
      expect(other).toContain(`api.${method}(`);
      mark(channel);
    }
  });

  it('covers every request channel of the contract', () => {
    expect([...covered].sort()).toEqual([...REQUEST_CHANNELS].sort());
  });
});
