/**
 * Export and import carry a run's images (issue 17): an exported run shows its
 * screenshots where it is imported. Only images its events name are taken, and only when
 * their bytes are the image their ref names.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper, type EventImage, type RunEvent } from '@shared/events';
import { parseRunLog, parseRunLogPage } from './run-log';
import { readForComparison } from './compare-reader';
import { RunStore } from './run-store';
import { runImagesDir } from './run-images';
import { exportRun, importRun } from './run-transfer';
import { imageLine } from './export-images';

/** A 2×2 PNG, and another image (a GIF) with other bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const quiet = { onWarning: () => {} };
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
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
      // not ASCII: Python's json.dumps writes it as \u escapes
      task: 'prüfe den Knopf ✓',
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

/**
 * What Python's `json.dumps` writes: `", "` and `": "` between items, non-ASCII as `\u`
 * escapes, and with `sort_keys=True` every object's keys sorted.
 */
function pythonDumps(value: unknown, sortKeys = false): string {
  if (Array.isArray(value)) return `[${value.map((v) => pythonDumps(v, sortKeys)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (sortKeys) keys.sort();
    const items = keys.map((k) => `${asciiJson(k)}: ${pythonDumps(record[k], sortKeys)}`);
    return `{${items.join(', ')}}`;
  }
  return asciiJson(value);
}

function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The same value with every object's keys in reverse order, written compactly. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).reverse();
  return Object.fromEntries(entries.map(([k, v]) => [k, reversedKeys(v)]));
}

/** Each line of an export written again by another JSON writer. */
function rewrite(content: string, write: (value: unknown) => string): string {
  const lines = content.trimEnd().split('\n');
  return `${lines.map((line) => write(JSON.parse(line))).join('\n')}\n`;
}

describe('importRun: an export written again by another JSON writer (item 8)', () => {
  const writers: [string, (value: unknown) => string][] = [
    ['Python json.dumps', (v) => pythonDumps(v)],
    ['Python json.dumps(sort_keys=True)', (v) => pythonDumps(v, true)],
    ['keys in reverse order', (v) => JSON.stringify(reversedKeys(v))],
  ];

  for (const [name, write] of writers) {
    it(`keeps every image of an export re-serialised by ${name}`, () => {
      const from = newStore();
      const [png, gif] = recordRun(from, 'run-py', [PNG, GIF, PNG]);
      const original = exportRun(from, 'run-py').content;
      const content = rewrite(original, write);
      expect(content).not.toBe(original);

      const to = newStore();
      const result = importRun(to, content, 'run-py.jsonl');
      expect(result.warnings).toEqual([]);
      expect(to.readImage('run-py', png!.ref!)?.bytes).toEqual(PNG);
      expect(to.readImage('run-py', gif!.ref!)?.bytes).toEqual(GIF);
      // the history holds the same events, written as the app writes them: envelope
      // first, so its readers (pages by seq, comparison) find what they look for
      const events = from.read('run-py')!.events;
      const stored = to.readText('run-py')!.trimEnd().split('\n');
      expect(stored.map((line) => JSON.parse(line) as unknown)).toEqual(events);
      stored.forEach((line, i) =>
        expect(line.startsWith(`{"v":1,"runId":"run-py","seq":${i + 1},"ts":`)).toBe(true),
      );
      const page = to.readPage('run-py', { afterSeq: 2, limit: 2 })!;
      expect(page.warnings).toEqual([]);
      expect(page.events.map((e) => e.seq)).toEqual([3, 4]);
      // and re-exported, the images come along again
      const again = importRun(newStore(), exportRun(to, 'run-py').content, 'again.jsonl');
      expect(again.warnings).toEqual([]);
    });
  }

  it('readers of an export file skip its image lines quietly, whoever wrote them', () => {
    const from = newStore();
    recordRun(from, 'run-read', [PNG, GIF]);
    const original = exportRun(from, 'run-read').content;
    for (const [name, write] of writers) {
      const content = rewrite(original, write);
      const parsed = parseRunLog(content, null, 'x.jsonl');
      expect([parsed.events.length, parsed.warnings], name).toEqual([4, []]);
      const page = parseRunLogPage(content, null, 'x.jsonl', { afterSeq: 0, limit: 4 });
      expect([page.events.length, page.hasMore, page.warnings], name).toEqual([4, false, []]);
      // `workbench runs diff FILE` reads an export this way
      const compared = readForComparison(content, 'run-read');
      expect([compared.events.length, compared.warnings], name).toEqual([4, []]);
    }
    expect(readForComparison(original, 'run-read').warnings).toEqual([]);
  });

  it('restores the emitted bytes when only the separators or line ends changed', () => {
    const from = newStore();
    recordRun(from, 'run-sep', [PNG]);
    const original = exportRun(from, 'run-sep').content;
    const rewritten = {
      'python.jsonl': rewrite(original, (v) => pythonDumps(v)),
      // a writer on Windows ends its lines with CRLF
      'crlf.jsonl': original.replaceAll('\n', '\r\n'),
    };
    for (const [name, content] of Object.entries(rewritten)) {
      const to = newStore();
      expect(importRun(to, content, name).warnings, name).toEqual([]);
      // `runs show --jsonl` replays what the run emitted, not what a script rewrote
      expect(to.readText('run-sep'), name).toBe(from.readText('run-sep'));
      expect(to.readImage('run-sep', `${sha(PNG)}.png`)?.bytes, name).toEqual(PNG);
    }
  });

  it('takes images from message images only, never from text that looks like one', () => {
    const from = newStore();
    const s = createEventStamper('run-text', () => 1_700_000_000_000);
    const ref = `${sha(PNG)}.png`;
    const events: RunEvent[] = [
      s.stamp({
        type: 'run.started',
        agent: 'a',
        task: 't',
        maxSteps: 3,
        model: 'm',
        sessionId: 's',
        // a setting that happens to be called "ref": not an image
        settings: { ref },
      }),
      s.stamp({
        type: 'memory.appended',
        agent: 'a',
        index: 0,
        // a tool output that quotes an export: text, not an image
        message: {
          role: 'tool',
          content: `{"runImage":{"ref":"${ref}","data":"x"}} "ref":"${ref}"`,
        },
      }),
    ];
    for (const event of events) from.append(event, JSON.stringify(event));
    from.keepImage('run-text', { mimeType: 'image/png', data: PNG.toString('base64') });
    // the export carries no image: no event's message names one
    const exported = exportRun(from, 'run-text').content;
    expect(exported.trimEnd().split('\n')).toHaveLength(2);
    const to = newStore();
    const result = importRun(to, `${exported}${imageLine(ref, PNG)}\n`, 'run-text.jsonl');
    expect(to.readImage('run-text', ref)).toBeUndefined();
    expect(result.warnings).toEqual([
      `run-text.jsonl: image ${ref.slice(0, 12)} is not named by any event; skipped`,
    ]);
    expect(to.read('run-text')!.events).toHaveLength(2);
  });
});

describe('importRun: hostile image refs (item 8)', () => {
  const HOSTILE = [
    '../../etc/passwd',
    '/etc/passwd',
    `../${'a'.repeat(64)}.png`,
    `${'a'.repeat(64)}.png\u0000`,
    `${'a'.repeat(64)}.svg`,
  ];

  it('keeps no image under a ref that is not of the ref pattern, and never echoes it', () => {
    const from = newStore();
    const [png] = recordRun(from, 'run-evil', [PNG]);
    const s = createEventStamper('run-evil', () => 1_700_000_000_000);
    const stamp = (seq: number, event: RunEvent): string => JSON.stringify({ ...event, seq });
    const exported = exportRun(from, 'run-evil').content.trimEnd().split('\n');
    // the run's events, then one more event per hostile ref, then the image lines
    const eventLines = exported.filter((line) => !line.includes('runImage'));
    const finished = eventLines.pop()!;
    const evil = HOSTILE.map((ref, i) =>
      stamp(
        eventLines.length + i + 1,
        s.stamp({
          type: 'memory.appended',
          agent: 'a',
          index: 10 + i,
          message: {
            role: 'user',
            content: 'screenshot',
            imageMimeType: 'image/png',
            image: { mimeType: 'image/png', bytes: PNG.length, ref },
          },
        }),
      ),
    );
    const last = JSON.stringify({
      ...(JSON.parse(finished) as RunEvent),
      seq: eventLines.length + evil.length + 1,
    });
    const images = [png!.ref!, ...HOSTILE].map((ref) =>
      pythonDumps({ runImage: { ref, data: PNG.toString('base64') } }),
    );
    const content = `${[...eventLines, ...evil, last, ...images].join('\n')}\n`;

    const to = newStore();
    const result = importRun(to, content, 'evil.jsonl');
    // the one real image is kept, nothing else is written anywhere
    expect(readdirSync(runImagesDir(to.dir, 'run-evil'))).toEqual([png!.ref!]);
    expect(existsSync(join(runImagesDir(to.dir, 'run-evil'), '..', '..', 'etc'))).toBe(false);
    expect(existsSync(join(to.dir, 'etc'))).toBe(false);
    for (const ref of HOSTILE) expect(to.readImage('run-evil', ref)).toBeUndefined();
    // each refused line is named by its line number, not by the hostile name
    const firstImageLine = eventLines.length + evil.length + 3;
    expect(result.warnings).toEqual([
      ...HOSTILE.map(
        (_, i) =>
          `evil.jsonl line ${firstImageLine + i}: an image whose name is not an image ref; skipped`,
      ),
      `evil.jsonl: ${HOSTILE.length} images its events name by something that is not an image ref; shown as missing`,
    ]);
    for (const warning of result.warnings) {
      expect(warning).not.toContain('passwd');
      expect(warning).not.toContain('\u0000');
    }
    expect(to.read('run-evil')!.events).toHaveLength(eventLines.length + evil.length + 1);
  });
});
