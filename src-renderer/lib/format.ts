/** Display formatting shared by the views. */
import type { TokenUsage } from '@shared/domain/agent';

/**
 * A model call's time as recorded (`llm.responded.durationMs`), saying how much of it was
 * waiting (a model slot, retry backoff) rather than the model answering.
 */
export function formatCallTime(durationMs: number, waitedMs = 0): string {
  if (waitedMs <= 0) return formatDuration(durationMs);
  return `${formatDuration(durationMs)} (${formatDuration(waitedMs)} of it waiting)`;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s % 60);
  if (m < 60) return `${m} m ${rest} s`;
  return `${Math.floor(m / 60)} h ${m % 60} m`;
}

/** One formatter: `toLocaleString` builds a new one per call (a timeline row has several). */
const COUNT_FORMAT = new Intl.NumberFormat('en');

export function formatCount(n: number): string {
  return COUNT_FORMAT.format(n);
}

export function totalTokens(usage: TokenUsage): number {
  return usage.prompt + usage.completion;
}

export function formatUsage(usage: TokenUsage): string {
  return `${formatCount(totalTokens(usage))} tokens (${formatCount(usage.prompt)} in, ${formatCount(usage.completion)} out)`;
}

export function formatTime(ts: number): string {
  return new Date(ts).toLocaleTimeString('en-GB', { hour12: false });
}

export function formatDate(ts: number, now: number = Date.now()): string {
  const d = new Date(ts);
  const today = new Date(now);
  const isToday = d.toDateString() === today.toDateString();
  if (isToday) return d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}

/** Pretty JSON of tool arguments; raw strings that are JSON are parsed first. */
export function formatArgs(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}

/** A one-line summary of arguments for collapsed rows. */
export function argsSummary(args: unknown, max = 120): string {
  let text: string;
  if (typeof args === 'string') text = args;
  else {
    try {
      text = JSON.stringify(args) ?? '';
    } catch {
      text = String(args);
    }
  }
  return clip(text.replace(/\s+/g, ' '), max);
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The first `lines` lines (and at most `chars` characters) of a text, and whether it was cut. */
export function headOf(
  text: string,
  lines: number,
  chars: number,
): { text: string; isCut: boolean } {
  let end = 0;
  for (let i = 0; i < lines; i++) {
    const next = text.indexOf('\n', end);
    if (next === -1) {
      end = text.length;
      break;
    }
    end = next + 1;
  }
  if (end === 0) end = text.length;
  end = Math.min(end, chars);
  const isCut = end < text.length;
  return { text: isCut ? text.slice(0, end).replace(/\n$/, '') : text, isCut };
}

export function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
}
