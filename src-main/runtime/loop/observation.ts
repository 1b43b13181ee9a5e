/**
 * Caps an observation at `maxObserve` characters, keeping the head and the tail and
 * saying how much was cut (the original sliced silently: openmanus.md 1.2 step 8).
 */
export function capObservation(text: string, maxObserve: number | undefined): string {
  if (maxObserve === undefined || text.length <= maxObserve) return text;
  const marker = (cut: number) =>
    `\n\n[... ${cut} characters cut: observation capped at ${maxObserve} ...]\n\n`;
  // Reserve room for the marker so the result stays within the cap when it can.
  const room = Math.max(0, maxObserve - marker(text.length).length);
  const head = Math.ceil(room * 0.7);
  const tail = room - head;
  const cut = text.length - head - tail;
  return text.slice(0, head) + marker(cut) + (tail > 0 ? text.slice(text.length - tail) : '');
}
