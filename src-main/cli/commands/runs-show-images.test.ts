/**
 * `workbench runs show` names an image's file only when the history kept it (item 8): an
 * imported run can name images it never brought, or "refs" that are paths elsewhere.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventStamper, type EventImage, type RunEvent } from '@shared/events';
import { RunStore } from '../../runtime/runs/run-store';
import { runsCommand } from './runs';

/** A 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const MISSING = `${'d'.repeat(64)}.png`;
const HOSTILE = ['../../etc/passwd', '/etc/passwd', `../${MISSING}`, `${MISSING}\u0000`];

let home: string;
let stdout: string[];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'wb-show-images-'));
  vi.stubEnv('WORKBENCH_HOME', home);
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A run whose messages name a kept image, one never kept, and hostile refs. */
function recordRun(): { runId: string; kept: EventImage } {
  const runId = 'run-show';
  const store = new RunStore(join(home, 'runs'), { onWarning: () => {} });
  const kept = store.keepImage(runId, { mimeType: 'image/png', data: PNG.toString('base64') });
  const s = createEventStamper(runId, () => 1_700_000_000_000);
  const image = (ref: string): EventImage => ({ mimeType: 'image/png', bytes: 70, ref });
  const events: RunEvent[] = [
    s.stamp({
      type: 'run.started',
      agent: 'a',
      task: 't',
      maxSteps: 3,
      model: 'm',
      sessionId: 's',
    }),
    ...[kept, image(MISSING), ...HOSTILE.map(image)].map((img, index) =>
      s.stamp({
        type: 'memory.appended',
        agent: 'a',
        index,
        message: { role: 'user', content: 'screenshot', imageMimeType: 'image/png', image: img },
      }),
    ),
    s.stamp({
      type: 'run.finished',
      outcome: 'finished',
      state: 'FINISHED',
      steps: 1,
      usage: { prompt: 1, completion: 1 },
    }),
  ];
  for (const event of events) store.append(event, JSON.stringify(event));
  store.close();
  return { runId, kept };
}

describe('workbench runs show: image paths', () => {
  it('prints the path of a kept image, and "missing" for any other', async () => {
    const { runId, kept } = recordRun();
    expect(await runsCommand(['show', runId])).toBe(0);
    const imageLines = stdout
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('  image:'));
    const keptPath = join(home, 'runs', `${runId}.images`, kept.ref!);
    expect(existsSync(keptPath)).toBe(true);
    expect(imageLines).toEqual([
      `  image: image/png 2×2, ${PNG.length} B → ${keptPath}`,
      ...[MISSING, ...HOSTILE].map(() => '  image: image/png, 70 B (image file missing)'),
    ]);
  });
});
