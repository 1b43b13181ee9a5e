import { appendFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserActionsLog } from './user-actions-log';

const typed = (runId: string, command: string) => ({
  type: 'user.command' as const,
  runId,
  ts: 1,
  command,
  output: '',
  exitCode: 0,
  durationMs: 1,
  timedOut: false,
  runState: 'finished' as const,
  containerId: 'c',
});

describe("a run's user-actions log", () => {
  it('numbers records from 1, skips a line a crash cut short, and goes with the run', () => {
    const log = new UserActionsLog(mkdtempSync(join(tmpdir(), 'wb-user-actions-')));
    expect(log.read('r1')).toEqual([]);
    expect(log.append(typed('r1', 'ls')).seq).toBe(1);
    appendFileSync(log.path('r1'), '{"type":"user.command","runId":"r1","seq":2,"comm');
    appendFileSync(log.path('r1'), '\n');
    expect(log.append(typed('r1', 'pwd')).seq).toBe(2);
    expect(log.read('r1').map((r) => [r.seq, r.command])).toEqual([
      [1, 'ls'],
      [2, 'pwd'],
    ]);
    expect(log.read('r2')).toEqual([]);
    expect(() => log.path('../r1')).toThrow('Invalid run id');
    log.remove('r1');
    expect(existsSync(log.path('r1'))).toBe(false);
  });
});
