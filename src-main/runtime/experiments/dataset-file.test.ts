import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { DatasetError } from '@shared/experiments/dataset';
import { loadDataset } from './dataset-file';
import { addRunsToDataset } from './dataset-add';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'wb-dataset-'));
}

describe('dataset files', () => {
  it('resolves file: tasks and workspace folders; the version follows the content', () => {
    const dir = folder();
    mkdirSync(join(dir, 'ws'));
    writeFileSync(join(dir, 'ws', 'a.txt'), 'one');
    writeFileSync(join(dir, 'long.md'), '  Count the files.  \n');
    const file = join(dir, 'd.jsonl');
    writeFileSync(file, '{"id": "a", "task": "file:long.md", "workspace": "ws"}\n{"task": "hi"}\n');
    const first = loadDataset(file);
    expect(first.items.map((i) => [i.id, i.taskText, i.workspacePath])).toEqual([
      ['a', 'Count the files.', join(dir, 'ws')],
      ['line-2', 'hi', undefined],
    ]);
    expect(first.version).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(loadDataset(file).version).toBe(first.version);
    // a file in a workspace folder changes: a new version, the lines unchanged
    writeFileSync(join(dir, 'ws', 'a.txt'), 'two');
    const second = loadDataset(file).version;
    expect(second).not.toBe(first.version);
    writeFileSync(join(dir, 'long.md'), 'Count the folders.');
    expect(loadDataset(file).version).not.toBe(second);
  });

  it('refuses paths outside the dataset folder and says the file, line, key and fix', () => {
    const dir = folder();
    const outside = folder();
    symlinkSync(outside, join(dir, 'link'));
    const file = join(dir, 'd.jsonl');
    writeFileSync(
      file,
      [
        '{"task": "ok"}',
        '{"task": "file:../../etc/passwd"}',
        '{"task": "x", "workspace": "link"}',
        '{"task": "x", "workspace": "nope"}',
      ].join('\n'),
    );
    let error: unknown;
    try {
      loadDataset(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatasetError);
    const problems = (error as DatasetError).problems;
    expect(problems.map((p) => [p.line, p.key])).toEqual([
      [2, 'task'],
      [3, 'workspace'],
      [4, 'workspace'],
    ]);
    expect((error as Error).message).toContain(`${file} line 3: "workspace": "link" leads to`);
    expect((error as Error).message).toContain(
      "outside the dataset's folder; give a path relative to",
    );
    writeFileSync(file, '\n');
    expect(() => loadDataset(file)).toThrow(/has no items; add one line like/);
  });

  it('adds runs: their task, a copy of their starting workspace, optionally their answer', () => {
    const dir = folder();
    const ws = folder();
    writeFileSync(join(ws, 'in.txt'), 'data');
    const events = (runId: string, workspace?: string): RunEvent[] => [
      {
        v: 1,
        runId,
        seq: 1,
        ts: 1,
        type: 'run.started',
        agent: 'toolcall',
        task: `task of ${runId}`,
        maxSteps: 5,
        model: 'm',
        sessionId: 's',
        ...(workspace ? { workspace: { path: workspace, mode: 'copy' as const } } : {}),
      },
      {
        v: 1,
        runId,
        seq: 2,
        ts: 2,
        type: 'llm.responded',
        agent: 'toolcall',
        step: 1,
        model: 'm',
        content: 'The answer is 4.',
        toolCalls: [],
        usage: { prompt: 1, completion: 1 },
        durationMs: 1,
        finishReason: 'stop',
      },
    ];
    const file = join(dir, 'sub', 'd.jsonl');
    const { added } = addRunsToDataset({
      file,
      runs: [{ runId: 'r-aaaa1111', events: events('r-aaaa1111', ws) }],
      withAnswer: true,
    });
    expect(added).toEqual([
      {
        id: 'run-aaaa1111',
        task: 'task of r-aaaa1111',
        workspace: 'workspaces/run-aaaa1111',
        expected: 'The answer is 4.',
        metadata: { fromRun: 'r-aaaa1111', agent: 'toolcall', model: 'm' },
      },
    ]);
    expect(readFileSync(join(dir, 'sub', 'workspaces', 'run-aaaa1111', 'in.txt'), 'utf8')).toBe(
      'data',
    );
    // the same run again: a new id, the first line kept
    const again = addRunsToDataset({
      file,
      runs: [{ runId: 'r-aaaa1111', events: events('r-aaaa1111') }],
    });
    expect(again.added[0]?.id).toBe('run-aaaa1111-2');
    expect(again.dataset.items.map((i) => i.id)).toEqual(['run-aaaa1111', 'run-aaaa1111-2']);
    expect(again.dataset.items[0]?.workspacePath).toBe(
      join(dir, 'sub', 'workspaces', 'run-aaaa1111'),
    );
    // a run that worked in the folder itself: the folder holds its result, not its start
    const mounted = events('r-bbbb2222', ws).map((e) =>
      e.type === 'run.started' ? { ...e, workspace: { path: ws, mode: 'mount' as const } } : e,
    );
    expect(() =>
      addRunsToDataset({ file, runs: [{ runId: 'r-bbbb2222', events: mounted }] }),
    ).toThrow(/worked in .* itself \(mounted\).*isolated copy/);
    expect(loadDataset(file).items).toHaveLength(2);
  });
});
