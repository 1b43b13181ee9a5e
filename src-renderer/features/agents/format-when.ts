/** When a run started, short: the time today, else the date and time. */
export function formatClock(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  const today = new Date(now).toDateString() === date.toDateString();
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return today ? time : `${date.toLocaleDateString()} ${time}`;
}
