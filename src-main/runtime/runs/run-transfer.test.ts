/**
 * Export and import carry a run's images (issue 17): an exported run shows its
 * screenshots where it is imported. Only images its events name are taken, and only when
 * their bytes are the image their ref names.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper, type EventImage, type RunEvent } from '@shared/events';
import { parseRunLog, parseRunLogPage } from './run-log';
import { RunStore } from './run-store';
import { exportRun, importRun } from './run-transfer';

/** A 2×2 PNG, and another image (a GIF) with other bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const quiet = { onWarning: () => {} };
const newStore = () => new RunStore(mkdtempSync(join(tmpdir(), 'wb-transfer-')), quiet);

/** A finished run whose memory holds one message per image. */
function recordRun(store: RunStore, runId: string, images: Buffer[]): EventImage[] {
  const kept = images.map((bytes) =>
    store.keepImage(runId, {
      mimeType: bytes === GIF ? 'image/gif' : 'image/png',
      data: bytes.toString('base64'),
    }),
  );
  const s = createEventStamper(runId, () => 1_700_000_000_000);
  const events: RunEvent[] = [
    s.stamp({
      type: 'run.started',
      agent: 'a',
      task: 't',
      maxSteps: 3,
      model: 'm',
      sessionId: 's',
    }),
    ...kept.map((image, index) =>
      s.stamp({
        type: 'memory.appended',
        agent: 'a',
        index,
        message: { role: 'user', content: 'screenshot', imageMimeType: image.mimeType, image },
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
  return kept;
}

describe('exportRun / importRun with images', () => {
  it('an exported run brings its images: the imported run reads the same bytes', () => {
    const from = newStore();
    const [png, gif] = recordRun(from, 'run-img', [PNG, GIF, PNG]);
    const exported = exportRun(from, 'run-img');
    const lines = exported.content.trimEnd().split('\n');
    // the events, then each image once (the PNG is named twice, carried once)
    expect(lines.filter((l) => l.startsWith('{"runImage":'))).toHaveLength(2);
    // readers of the file (compare, runs show) see the events only, and no warning
    const parsed = parseRunLog(exported.content, null, 'x.jsonl');
    expect(parsed.events).toHaveLength(5);
    expect(parsed.warnings).toEqual([]);
    const page = parseRunLogPage(exported.content, null, 'x.jsonl', { afterSeq: 0, limit: 5 });
    expect([page.events.length, page.hasMore]).toEqual([5, false]);

    const to = newStore();
    const result = importRun(to, exported.content, 'run-img.jsonl');
    expect(result.warnings).toEqual([]);
    expect(to.readImage('run-img', png!.ref!)?.bytes).toEqual(PNG);
    expect(to.readImage('run-img', gif!.ref!)?.bytes).toEqual(GIF);
    // the stored history is the events alone, as recorded
    expect(to.readText('run-img')).toBe(`${lines.slice(0, 5).join('\n')}\n`);
  });

  it('refuses an image whose bytes do not hash to its ref, and one no event names', () => {
    const from = newStore();
    const [png] = recordRun(from, 'run-bad', [PNG]);
    const otherRef = `${'0'.repeat(64)}.gif`;
    const content = exportRun(from, 'run-bad')
      .content.replace(PNG.toString('base64'), GIF.toString('base64'))
      .concat(`{"runImage":{"ref":"${otherRef}","data":"${GIF.toString('base64')}"}}\n`)
      .concat('{"runImage":{"ref":"../../etc/passwd"\n');
    const to = newStore();
    const result = importRun(to, content, 'run-bad.jsonl');
    expect(to.readImage('run-bad', png!.ref!)).toBeUndefined();
    expect(to.readImage('run-bad', otherRef)).toBeUndefined();
    expect(result.warnings).toEqual([
      'run-bad.jsonl line 6: not a readable image line; skipped',
      `run-bad.jsonl: image ${png!.ref!.slice(0, 12)} not kept: its bytes do not match its name (changed after export?)`,
      `run-bad.jsonl: image ${otherRef.slice(0, 12)} is not named by any event; skipped`,
    ]);
    // the run itself is imported: its message says the image file is missing
    expect(to.summary('run-bad')?.runId).toBe('run-bad');
  });

  it('says how many images an export made without them leaves missing', () => {
    const from = newStore();
    recordRun(from, 'run-old', [PNG, GIF]);
    const eventsOnly = exportRun(from, 'run-old')
      .content.split('\n')
      .filter((line) => !line.startsWith('{"runImage":'))
      .join('\n');
    const result = importRun(newStore(), eventsOnly, 'old.jsonl');
    expect(result.warnings).toEqual([
      'old.jsonl: 2 images its events name are not in the file (exported without images, or lost before the export); shown as missing',
    ]);
  });
});
