/**
 * Files a snapshot left out (issue 24 item 3: past a cap, nested too deeply) stay left
 * out in the listings after it until a later snapshot takes them: a delta holds only
 * what changed, so a file left out at step 3 and untouched since is in no archive of
 * steps 4, 5, ..., and without the mark a fork from step 5 would get an older copy from
 * before step 3 (or nothing) as if it were the file. Marked, the restore removes it and
 * the listing says why it is missing.
 */
import type { ManifestEntry } from './workspace-snapshot';

export class SkippedFiles {
  /** path -> why it is left out, as of the last snapshot kept */
  private carried = new Map<string, string>();

  /**
   * The listing of a snapshot that holds `archived`, with every entry left out so far
   * and not taken since marked; `fresh` are the ones left out for the first time. `keep`
   * makes it the state the next snapshot builds on (once the snapshot is saved: one that
   * is thrown away changes nothing).
   */
  apply(
    manifest: readonly ManifestEntry[],
    archived: Iterable<string>,
    isFull: boolean,
  ): { manifest: ManifestEntry[]; fresh: ManifestEntry[]; keep: () => void } {
    const next = new Map(isFull ? [] : this.carried);
    for (const path of archived) next.delete(path);
    const fresh = manifest.filter((e) => e.skipped !== undefined && !next.has(e.path));
    const present = new Set<string>();
    for (const entry of manifest) {
      present.add(entry.path);
      if (entry.skipped !== undefined) next.set(entry.path, entry.skipped);
    }
    for (const path of [...next.keys()]) {
      if (!present.has(path)) next.delete(path); // deleted since: nothing to miss
    }
    return {
      manifest: manifest.map((entry) => {
        const why = entry.skipped ?? next.get(entry.path);
        return why === undefined ? entry : { ...entry, skipped: why };
      }),
      fresh,
      keep: () => {
        this.carried = next;
      },
    };
  }
}
