/**
 * A file left out of one snapshot stays marked in the listings after it until a
 * snapshot takes it, so a fork from a later step never gets a stale copy as the file.
 */
import { describe, expect, it } from 'vitest';
import { SkippedFiles } from './skipped-files';
import type { ManifestEntry } from './workspace-snapshot';

/** A snapshot's listing, kept (as the recorder does once the snapshot is saved). */
function kept(skipped: SkippedFiles, ...args: Parameters<SkippedFiles['apply']>) {
  const result = skipped.apply(...args);
  result.keep();
  return result;
}

const f = (path: string, skipped?: string): ManifestEntry =>
  skipped === undefined ? { path, kind: 'f' } : { path, kind: 'f', skipped };

describe('SkippedFiles', () => {
  it('keeps a left-out file marked until it is taken, deleted, or a full snapshot starts over', () => {
    const skipped = new SkippedFiles();
    const step1 = kept(skipped, [f('big', 'too large'), f('small')], ['small'], true);
    expect(step1.fresh.map((e) => e.path)).toEqual(['big']);
    expect(step1.manifest).toEqual([f('big', 'too large'), f('small')]);

    // big unchanged: not in this delta, still missing
    const step2 = kept(skipped, [f('big'), f('small')], [], false);
    expect(step2.fresh).toEqual([]);
    expect(step2.manifest).toEqual([f('big', 'too large'), f('small')]);

    // left out again after a change: still marked, not announced again
    const step3 = kept(skipped, [f('big', 'too large'), f('small')], [], false);
    expect(step3.fresh).toEqual([]);

    // it shrank and was taken
    const step4 = kept(skipped, [f('big'), f('small')], ['big'], false);
    expect(step4.manifest).toEqual([f('big'), f('small')]);

    kept(skipped, [f('other', 'too large')], [], false);
    // deleted: forgotten; it comes back new, as taken
    expect(kept(skipped, [], [], false).manifest).toEqual([]);
    expect(kept(skipped, [f('other')], ['other'], false).manifest).toEqual([f('other')]);

    kept(skipped, [f('x', 'too large')], [], false);
    // a full snapshot (a new container) starts a new chain: only its own marks count
    expect(kept(skipped, [f('x')], ['x'], true).manifest).toEqual([f('x')]);
  });

  it('changes nothing for a snapshot that is thrown away', () => {
    const skipped = new SkippedFiles();
    kept(skipped, [f('big', 'too large')], [], true);
    // taken by a snapshot whose commit then failed: still missing for the next one
    skipped.apply([f('big')], ['big'], false);
    expect(kept(skipped, [f('big')], [], false).manifest).toEqual([f('big', 'too large')]);
  });
});
