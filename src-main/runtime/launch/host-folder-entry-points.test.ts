/**
 * Every way a host folder can reach a sandbox goes through one gate (issue 24 item 2):
 * the same hostile folders, tried at each entry point of the runtime with the real run
 * factory (no pre-flight in front of it), are refused there, and nothing is mounted,
 * copied or recorded for them. The pre-flight's own checks and the UI's entry points
 * (Run again, batch:start) are in host/host-folder-contract.test.ts; the gate's verdicts
 * in workspace.test.ts.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import type { RunWorkspace } from '@shared/ipc';
import { createRuntime, type Runtime } from '../runtime';
import { RunStore } from '../runs/run-store';
import { exportRun, importRun } from '../runs/run-transfer';
import { LineageError } from '../runs/run-lineage';
import { mountSessionId } from './workspace';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.dispose()));
});

function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'wb-entry-')));
  const home = join(root, 'home');
  mkdirSync(join(home, 'workspaces', 's-other'), { recursive: true });
  writeFileSync(join(home, 'secrets.json'), '{"llm":"sk-secret"}');
  writeFileSync(
    join(home, 'config.toml'),
    '[llm]\nmodel = "scripted-model"\napi_type = "scripted"\n[llm.fast]\nmodel = "fast"\napi_type = "scripted"\n',
  );
  symlinkSync('/etc', join(root, 'looks-like-a-project'));
  symlinkSync(home, join(root, 'innocent'));
  const runtime = createRuntime({ home, env: {}, sweepAtStart: false });
  runtimes.push(runtime);
  const events: RunEvent[] = [];
  runtime.runs.onEvent((e) => events.push(e));
  return { root, home, runtime, events };
}

/** Folders no run may see, with what the refusal says. */
function hostileFolders(root: string, home: string): [string, RegExp][] {
  return [
    ['/', /too wide: the agent would see the whole machine/],
    ['/etc', /system folder \(\/etc\)/],
    ['/etc/ssl', /system folder \(\/etc\)/],
    ['/proc/self', /system folder \(\/proc\)/],
    ['/usr/share', /system folder \(\/usr\)/],
    [root, /too wide.*API keys/],
    [home, /too wide.*API keys/],
    [join(home, 'workspaces', 's-other'), /inside the app's own folder/],
    [join(root, 'looks-like-a-project'), /a link to \/etc.*system folder/],
    [join(root, 'innocent'), /a link to .*home\) is too wide/],
    ['relative/folder', /not an absolute path/],
    [join(root, 'missing'), /does not exist/],
    [`${root}/a\0b`, /not a valid path/],
  ];
}

/** A history recorded on this machine (not imported) that names `workspace`. */
function recordLocal(home: string, runId: string, workspace: RunWorkspace, finished: boolean) {
  const store = new RunStore(join(home, 'runs'), { onWarning: () => {} });
  const stamper = createEventStamper(runId);
  const payloads: RunEventPayload[] = [
    {
      type: 'run.started',
      agent: 'toolcall',
      task: 'steps: 1',
      maxSteps: 5,
      model: 'm',
      sessionId: 's-other',
      workspace,
    },
    { type: 'step.started', agent: 'toolcall', step: 1, maxSteps: 5 },
    {
      type: 'memory.appended',
      agent: 'toolcall',
      index: 0,
      message: { role: 'user', content: 'steps: 1' },
    },
    { type: 'step.finished', agent: 'toolcall', step: 1, durationMs: 1 },
  ];
  if (finished) {
    payloads.push({
      type: 'run.finished',
      outcome: 'finished',
      state: 'FINISHED',
      steps: 1,
      usage: { prompt: 0, completion: 0 },
    });
  }
  for (const payload of payloads) {
    const event = stamper.stamp(payload);
    store.append(event, JSON.stringify(event));
  }
  store.close();
}

async function refusal(promise: Promise<unknown>): Promise<LineageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('a host folder reaches a sandbox only through the gate', () => {
  it('run: a refused folder ends the run with the reason; nothing is mounted or copied', async () => {
    const { root, home, runtime } = setup();
    for (const [path, message] of hostileFolders(root, home)) {
      for (const mode of ['mount', 'copy'] as const) {
        const { runId, done } = runtime.runs.start({
          task: 'steps: 1',
          agent: 'toolcall',
          workspace: { path, mode },
        });
        const result = await done;
        expect(result.outcome, `${mode} ${path}`).toBe('error');
        expect(result.error, `${mode} ${path}`).toMatch(message);
        expect(runtime.services.sessions.get(mountSessionId(path))).toBeUndefined();
        expect(existsSync(join(home, 'workspaces', `copy-${runId}`))).toBe(false);
      }
    }
    expect(readdirSync(join(home, 'workspaces'))).toEqual(['s-other']);
  });

  it('resume: a history that names a refused folder is refused up front, nothing recorded', async () => {
    const { root, home } = setup();
    let n = 0;
    for (const [path, message] of hostileFolders(root, home)) {
      const runId = `20260101T000000-${(n++).toString(16).padStart(8, '0')}`;
      recordLocal(home, runId, { path, mode: 'mount' }, false);
      // a new runtime: it finds the run interrupted, as after a kill
      const runtime = createRuntime({ home, env: {}, sweepAtStart: false });
      runtimes.push(runtime);
      const before = runtime.runs.list().length;
      const error = await refusal(runtime.runs.startFrom({ kind: 'resume', runId }));
      expect(error.code, path).toBe('conflict');
      expect(error.message, path).toMatch(message);
      expect(runtime.runs.list()).toHaveLength(before);
    }
  });

  it('resume of a copy: the copy is the one its run made, never the path its history names', async () => {
    const { home } = setup();
    const runId = '20260101T000000-c0c0c0c0';
    // the history's copyPath points at another session's folder: it is not used
    recordLocal(
      home,
      runId,
      { path: '/srv/project', mode: 'copy', copyPath: join(home, 'workspaces', 's-other') },
      false,
    );
    let runtime = createRuntime({ home, env: {}, sweepAtStart: false });
    runtimes.push(runtime);
    const missing = await refusal(runtime.runs.startFrom({ kind: 'resume', runId }));
    expect(missing.message).toMatch(
      /worked on a copy of its folder .*copy-20260101T000000-c0c0c0c0/,
    );
    // the run's own copy, swapped for a link to /etc: refused too
    symlinkSync('/etc', join(home, 'workspaces', `copy-${runId}`));
    runtime = createRuntime({ home, env: {}, sweepAtStart: false });
    runtimes.push(runtime);
    expect((await refusal(runtime.runs.startFrom({ kind: 'resume', runId }))).message).toMatch(
      /symbolic link/,
    );
  });

  it('fork: never mounts the folder the parent names; without its files only when asked', async () => {
    const { home, runtime, events } = setup();
    const runId = '20260101T000000-f0f0f0f0';
    recordLocal(home, runId, { path: '/', mode: 'mount' }, true);
    const error = await refusal(runtime.runs.startFrom({ kind: 'fork', runId, step: 1 }));
    expect(error.message).toMatch(/cannot be forked at step 1 with its files.*it worked in \//);
    expect(runtime.runs.list().map((s) => s.runId)).toEqual([runId]);
    const fork = await runtime.runs.startFrom({ kind: 'fork', runId, step: 1, withoutFiles: true });
    await fork.done;
    const started = events.find((e) => e.runId === fork.runId && e.type === 'run.started');
    expect(started).toMatchObject({ sessionId: `fork-${fork.runId}`, forkOf: { runId, step: 1 } });
    expect(started && 'workspace' in started ? started.workspace : undefined).toBeUndefined();
  });

  it('import: an imported run is never resumed, and forks only without its files', async () => {
    const { home } = setup();
    const source = mkdtempSync(join(tmpdir(), 'wb-entry-src-'));
    const runId = '20260101T000000-1a1a1a1a';
    recordLocal(source, runId, { path: '/', mode: 'mount' }, false);
    const from = new RunStore(join(source, 'runs'), { onWarning: () => {} });
    const exported = exportRun(from, runId).content;
    from.close();
    const runtime = createRuntime({ home, env: {}, sweepAtStart: false });
    runtimes.push(runtime);
    const imported = importRun(runtime.runs.history, exported, 'cut.jsonl').summary;
    expect(runtime.runs.get(imported.runId)?.isImported).toBe(true);
    const resume = await refusal(runtime.runs.startFrom({ kind: 'resume', runId }));
    expect(resume.message).toMatch(/was imported/);
    const fork = await refusal(runtime.runs.startFrom({ kind: 'fork', runId, step: 1 }));
    expect(fork.message).toMatch(/an imported run carries no snapshots/);
    expect(runtime.runs.list()).toHaveLength(1);
  });
});
