import { mkdtempSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchPlanError, createBatchPlan, parseTaskLines } from './batch-plan';

describe('parseTaskLines', () => {
  it('reads one task a line, workspaces relative to the file, blank lines skipped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-tasks-'));
    mkdirSync(join(dir, 'repo'));
    const text = ['{"task":"a"}', '', '{"task":"b","workspace":"repo","check":"make test"}'].join(
      '\n',
    );
    expect(parseTaskLines(text, join(dir, 'tasks.jsonl'))).toEqual([
      { task: 'a' },
      { task: 'b', workspace: join(dir, 'repo'), check: 'make test' },
    ]);
  });

  it.each([
    ['not json', /line 1 is not JSON/],
    ['[1]', /line 1 is not an object/],
    ['{"task":""}', /"task" must be a non-empty string/],
    ['{"task":"a","chek":"x"}', /unknown key "chek"/],
    ['{"task":"a","workspace":"no/such/folder"}', /is not a folder/],
    ['{"task":"a","check":""}', /"check" must be a non-empty command/],
    ['', /has no tasks/],
  ])('refuses %s, naming the line', (text, message) => {
    expect(() => parseTaskLines(text, 'tasks.jsonl')).toThrow(BatchPlanError);
    expect(() => parseTaskLines(text, 'tasks.jsonl')).toThrow(message);
  });
});

describe('parseTaskLines: a task file names only folders beside it (issue 24 item 4)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wb-tasks-'));
  mkdirSync(join(dir, 'tasks', 'repo'), { recursive: true });
  mkdirSync(join(dir, 'elsewhere'));
  symlinkSync(join(dir, 'elsewhere'), join(dir, 'tasks', 'link-out'));
  symlinkSync('/etc', join(dir, 'tasks', 'etc-link'));
  const file = join(dir, 'tasks', 'tasks.jsonl');

  it.each([
    ['/etc', /is absolute; a task's workspace is a folder beside the task file/],
    [join(dir, 'tasks', 'repo'), /is absolute/],
    ['../elsewhere', /outside the task file's folder/],
    ['../..', /outside the task file's folder/],
    ['repo/../../elsewhere', /outside the task file's folder/],
    ['link-out', /leads to .*elsewhere, outside the task file's folder/],
    ['etc-link', /leads to \/etc, outside the task file's folder/],
    ['repo\u0000x', /NUL byte/],
  ])('refuses %s', (workspace, message) => {
    const line = JSON.stringify({ task: 'x', workspace });
    expect(() => parseTaskLines(line, file)).toThrow(BatchPlanError);
    expect(() => parseTaskLines(line, file)).toThrow(message);
  });

  it("takes a folder beside the file, or the file's own folder, by its real path", () => {
    const lines = ['{"task":"a","workspace":"repo"}', '{"task":"b","workspace":"."}'];
    expect(parseTaskLines(lines.join('\n'), file).map((t) => t.workspace)).toEqual([
      realpathSync(join(dir, 'tasks', 'repo')),
      realpathSync(join(dir, 'tasks')),
    ]);
  });
});

describe('createBatchPlan', () => {
  it('plans tasks x profiles x repeats, repeats outermost, the default check where a task has none', () => {
    const plan = createBatchPlan({
      agent: 'swe',
      tasks: [{ task: 'a' }, { task: 'b', check: 'own' }],
      profiles: ['x', 'y'],
      repeat: 2,
      concurrency: 3,
      check: 'default',
    });
    expect(plan.batchId).toMatch(/^b-\d{8}T\d{6}-[0-9a-f]{6}$/);
    expect(plan.items).toHaveLength(8);
    expect(plan.items.slice(0, 4).map((i) => i.key)).toEqual([
      't0-p0-r0',
      't0-p1-r0',
      't1-p0-r0',
      't1-p1-r0',
    ]);
    expect(plan.tasks.map((t) => t.check)).toEqual(['default', 'own']);
    expect(
      createBatchPlan({ ...plan, tasks: plan.tasks, profiles: [], repeat: 1, concurrency: 1 })
        .profiles,
    ).toEqual([null]);
  });

  it('refuses a profile named twice and a batch too large to mean it', () => {
    const base = { agent: 'swe' as const, tasks: [{ task: 'a' }], repeat: 1, concurrency: 1 };
    expect(() => createBatchPlan({ ...base, profiles: ['x', 'x'] })).toThrow(/named twice/);
    expect(() => createBatchPlan({ ...base, profiles: [], repeat: 10_000 })).toThrow(/10000 runs/);
  });
});
