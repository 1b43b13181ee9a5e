/**
 * A file left out of one snapshot stays marked in the listings after it until a
 * snapshot takes it, so a fork from a later step never gets a stale copy as the file.
 */
import { describe, expect, it } from 'vitest';
import { SkippedFiles } from './skipped-files';
import type { ManifestEntry } from './workspace-snapshot';

const f = (path: string, skipped?: string): ManifestEntry =>
  skipped === undefined ? { path, kind: 'f' } : { path, kind: 'f', skipped };

describe('SkippedFiles', () => {
  it('keeps a left-out file marked until it is taken, deleted, or a full snapshot starts over', () => {
    const skipped = new SkippedFiles();
    const step1 = skipped.apply([f('big', 'too large'), f('small')], ['small'], true);
    expect(step1.fresh.map((e) => e.path)).toEqual(['big']);
    expect(step1.manifest).toEqual([f('big', 'too large'), f('small')]);

    // big unchanged: not in this delta, still missing
    const step2 = skipped.apply([f('big'), f('small')], [], false);
    expect(step2.fresh).toEqual([]);
    expect(step2.manifest).toEqual([f('big', 'too large'), f('small')]);

    // left out again after a change: still marked, not announced again
    const step3 = skipped.apply([f('big', 'too large'), f('small')], [], false);
    expect(step3.fresh).toEqual([]);

    // it shrank and was taken
    const step4 = skipped.apply([f('big'), f('small')], ['big'], false);
    expect(step4.manifest).toEqual([f('big'), f('small')]);

    skipped.apply([f('other', 'too large')], [], false);
    // deleted: forgotten; it comes back new, as taken
    expect(skipped.apply([], [], false).manifest).toEqual([]);
    expect(skipped.apply([f('other')], ['other'], false).manifest).toEqual([f('other')]);

    skipped.apply([f('x', 'too large')], [], false);
    // a full snapshot (a new container) starts a new chain: only its own marks count
    expect(skipped.apply([f('x')], ['x'], true).manifest).toEqual([f('x')]);
  });
});
