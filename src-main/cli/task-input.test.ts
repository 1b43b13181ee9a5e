import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_TASK_BYTES, readTask } from './task-input';
import { UsageError } from './usage-error';

const stdin = (text: string, isTTY = false) =>
  Object.assign(Readable.from([Buffer.from(text)]), { isTTY });

describe('readTask', () => {
  it('joins the positional words', async () => {
    expect(await readTask({ positionals: ['say', 'hello'], stdin: stdin('') })).toBe('say hello');
  });

  it('takes --prompt as OpenManus users type it', async () => {
    expect(await readTask({ positionals: [], prompt: ' list files ', stdin: stdin('') })).toBe(
      'list files',
    );
  });

  it('reads the task from stdin for "-"', async () => {
    const hints: string[] = [];
    const task = await readTask({
      positionals: ['-'],
      stdin: stdin('fix the bug\nin app.py\n', true),
      hint: (m) => hints.push(m),
    });
    expect(task).toBe('fix the bug\nin app.py');
    expect(hints[0]).toMatch(/Ctrl-D/);
  });

  it('refuses two sources, an empty task and an oversized stdin', async () => {
    await expect(readTask({ positionals: ['a'], prompt: 'b', stdin: stdin('') })).rejects.toThrow(
      UsageError,
    );
    await expect(readTask({ positionals: ['-'], stdin: stdin('  \n') })).rejects.toThrow(
      /stdin is empty/,
    );
    await expect(readTask({ positionals: [], stdin: stdin('') })).rejects.toThrow(/needs a TASK/);
    await expect(readTask({ positionals: ['x', '-'], stdin: stdin('') })).rejects.toThrow(
      /only TASK/,
    );
    await expect(
      readTask({ positionals: ['-'], stdin: stdin('x'.repeat(MAX_TASK_BYTES + 1)) }),
    ).rejects.toThrow(/over 1 MB/);
  });
});
