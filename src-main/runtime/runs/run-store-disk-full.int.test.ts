/**
 * Issue 12 item 9 on a real full disk: a 64 KB tmpfs holds the run history while a run
 * writes more than fits. Mounting needs root (CAP_SYS_ADMIN); elsewhere the test says why
 * it cannot run (the unit test covers the same logic with a fake disk).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventStamper, type RunEventPayload } from '@shared/events';
import { parseRunLog } from './run-log';
import { RunStore } from './run-store';

function mountTmpfs(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'wb-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (error) {
    console.warn(
      `[tests] disk-full test skipped: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`,
    );
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const mounted = mountTmpfs();
afterAll(() => {
  if (mounted) execFileSync('umount', [mounted]);
});

describe.skipIf(!mounted)('the run history on a real full disk (64 KB tmpfs)', () => {
  it('a run that finishes after the disk filled is finished (history incomplete), also after a restart', () => {
    const dir = join(mounted as string, 'runs');
    const warnings: string[] = [];
    const store = new RunStore(dir, { onWarning: (w) => warnings.push(w) });
    const s = createEventStamper('full1');
    const big = 'x'.repeat(2_000);
    const payloads: RunEventPayload[] = [
      {
        type: 'run.started',
        agent: 'swe',
        task: 'fill it',
        maxSteps: 30,
        model: 'm',
        sessionId: 's',
      },
    ];
    for (let step = 1; step <= 40; step++) {
      payloads.push({ type: 'step.started', agent: 'swe', step, maxSteps: 30 });
      payloads.push({ type: 'llm.delta', agent: 'swe', step, text: big });
    }
    payloads.push({
      type: 'run.finished',
      outcome: 'finished',
      state: 'FINISHED',
      steps: 40,
      usage: { prompt: 1, completion: 1 },
    });
    for (const payload of payloads) {
      const event = s.stamp(payload);
      store.append(event, JSON.stringify(event));
    }
    expect(warnings.join('\n')).toMatch(
      /writing its history failed \((ENOSPC|only \d+ of \d+ bytes)/,
    );
    const live = store.list()[0];
    expect(live).toMatchObject({ outcome: 'finished', steps: 40 });
    expect(live?.historyIncomplete).toMatch(
      /(ENOSPC|disk is full).*events after #\d+ were not saved/,
    );
    store.close();

    const log = parseRunLog(readFileSync(join(dir, 'full1.jsonl'), 'utf8'), 'full1', 'log');
    expect(log.warnings).toEqual([]); // no torn line
    expect(log.events.length).toBeLessThan(payloads.length);

    const restarted = new RunStore(dir, { onWarning: () => {} });
    expect(restarted.startup.interrupted).toEqual([]);
    expect(restarted.list()[0]).toMatchObject({
      outcome: 'finished',
      steps: 40,
      historyIncomplete: live?.historyIncomplete,
    });
    expect(restarted.list()[0]?.isInterrupted).toBeUndefined();
  });
});
