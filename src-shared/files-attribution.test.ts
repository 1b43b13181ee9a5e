import { describe, expect, it } from 'vitest';
import type { FileChangeView } from './domain/files';
import type { RunEvent } from './events';
import { attributeChanges, editedPath } from './files-attribution';

const change = (path: string): FileChangeView => ({
  path,
  change: 'changed',
  kind: 'file',
  sizeBefore: 1,
  sizeAfter: 2,
  isBinary: false,
  added: 1,
  removed: 1,
});

let seq = 0;
const started = (step: number, toolCallId: string, name: string, args: unknown): RunEvent =>
  ({
    type: 'tool.started',
    runId: 'r',
    seq: ++seq,
    ts: 0,
    agent: 'swe',
    step,
    toolCallId,
    name,
    args,
  }) as unknown as RunEvent;

describe('attributeChanges', () => {
  it('an editor call names its file exactly; bash and python by the step', () => {
    const events = [
      started(3, 'c1', 'str_replace_editor', {
        command: 'str_replace',
        path: '/workspace/src/calc.py',
        old_str: 'a',
        new_str: 'b',
      }),
      started(3, 'c2', 'str_replace_editor', { command: 'view', path: '/workspace/notes.md' }),
      started(3, 'c3', 'bash', { command: 'make' }),
      started(3, 'c4', 'terminate', { status: 'success' }),
      started(4, 'c5', 'bash', { command: 'rm -rf build' }),
    ];
    const [calc, build] = attributeChanges(
      [change('src/calc.py'), change('build/out.o')],
      events,
      3,
    );
    expect(calc!.attribution).toEqual([
      { step: 3, toolCallId: 'c1', tool: 'str_replace_editor', certainty: 'exact' },
    ]);
    expect(build!.attribution).toEqual([
      { step: 3, toolCallId: 'c3', tool: 'bash', certainty: 'step' },
    ]);
  });

  it('editor paths: relative, under the work dir, never above it', () => {
    expect(editedPath({ command: 'create', path: '/workspace/a/../b.txt' }, '/workspace')).toBe(
      'b.txt',
    );
    expect(editedPath({ command: 'create', path: 'x/y.txt' }, '/workspace/')).toBe('x/y.txt');
    expect(editedPath({ command: 'create', path: '/etc/passwd' }, '/workspace')).toBeUndefined();
    expect(
      editedPath({ command: 'create', path: '/workspace/../etc' }, '/workspace'),
    ).toBeUndefined();
    expect(editedPath({ command: 'view', path: '/workspace/a' }, '/workspace')).toBeUndefined();
    expect(editedPath({ command: 'create', path: '/code/a' }, '/code')).toBe('a');
  });
});
