/**
 * Caps an observation at `maxObserve` characters, keeping the head and the tail and
 * saying how much was cut (the original sliced silently: openmanus.md 1.2 step 8).
 *
 * Output may already have been cut once, by the sandbox's capture cap, which put its own
 * marker in the middle. Cutting the middle again removes that marker, and the count
 * left would be only this cap's share (issue 17: "55,679 characters cut" when about
 * 467,000 were). So the earlier cuts come along with the text (ToolResult.earlierCuts)
 * and each one whose marker falls inside this cut is added to the count, its marker's
 * own characters taken out (they were never output).
 */
export interface EarlierCut {
  marker: string;
  /** what the earlier cap removed; the capture cap counts bytes (= characters for ASCII) */
  omitted: number;
}

export function capObservation(
  text: string,
  maxObserve: number | undefined,
  earlierCuts: readonly EarlierCut[] = [],
): string {
  if (maxObserve === undefined || text.length <= maxObserve) return text;
  const marker = (cut: number) =>
    `\n\n[... ${cut} characters cut: observation capped at ${maxObserve} ...]\n\n`;
  // Reserve room for the marker so the result stays within the cap when it can
  // (measured with a count longer than any real one: the total may exceed text.length).
  const room = Math.max(0, maxObserve - marker(Number.MAX_SAFE_INTEGER).length);
  const head = Math.ceil(room * 0.7);
  const tail = room - head;
  const cutEnd = text.length - tail;
  let cut = cutEnd - head;
  let from = 0;
  for (const earlier of earlierCuts) {
    const at = text.indexOf(earlier.marker, from);
    if (at < 0) continue;
    from = at + earlier.marker.length;
    if (at >= head && from <= cutEnd) cut += earlier.omitted - earlier.marker.length;
  }
  return text.slice(0, head) + marker(cut) + (tail > 0 ? text.slice(text.length - tail) : '');
}
