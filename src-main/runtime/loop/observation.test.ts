import { describe, expect, it } from 'vitest';
import { CappedOutput } from '../sandbox/capped-output';
import { capObservation } from './observation';

/** ~500,000 characters of numbered lines, so what is kept can be traced to the original. */
function bigOutput(chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line = `line ${i} of a long command output\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('');
}

function markerCount(text: string): number {
  const match = /\[\.\.\. (\d+) characters cut: observation capped at \d+ \.\.\.\]/.exec(text);
  if (!match?.[1]) throw new Error(`no observation marker in:\n${text.slice(0, 200)}`);
  return Number(match[1]);
}

describe('capObservation after the capture cap (issue 17: the cut marker)', () => {
  it('states the true number of characters cut when the capture marker is cut away', () => {
    const original = bigOutput(500_000);
    const capture = new CappedOutput(); // the sandbox's default capture cap (64 KiB)
    capture.push(Buffer.from(original));
    const captured = capture.toString();
    const cut = capture.cut();
    expect(cut).not.toBeNull();
    expect(captured).toContain(cut!.marker);

    const final = capObservation(captured, 10_000, [cut!]);
    expect(final.length).toBeLessThanOrEqual(10_000);
    expect(final).not.toContain(cut!.marker); // the capture's own marker was cut away
    const [head, tail] = final.split(/\n\n\[\.\.\. \d+ characters cut[^\]]*\]\n\n/);
    expect(original.startsWith(head!)).toBe(true);
    expect(original.endsWith(tail!)).toBe(true);
    const trulyCut = original.length - head!.length - tail!.length;
    // Before the fix this said ~55,600 (only the observation cap's share) of ~490,000.
    expect(markerCount(final)).toBe(trulyCut);
    expect(trulyCut).toBeGreaterThan(480_000);
  });

  it('counts only its own cut when the earlier marker is kept', () => {
    const capture = new CappedOutput(1_000);
    capture.push(Buffer.from('a'.repeat(5_000)));
    const captured = capture.toString() + 'b'.repeat(20_000);
    const final = capObservation(captured, 10_000, [capture.cut()!]);
    expect(final).toContain(capture.cut()!.marker);
    const ownMarker = /\n\n\[\.\.\. \d+ characters cut[^\]]*\]\n\n/.exec(final)![0];
    expect(markerCount(final)).toBe(captured.length - (final.length - ownMarker.length));
  });

  it('leaves short text and uncapped agents alone', () => {
    expect(capObservation('short', 100)).toBe('short');
    expect(capObservation('x'.repeat(50), undefined)).toBe('x'.repeat(50));
  });
});
