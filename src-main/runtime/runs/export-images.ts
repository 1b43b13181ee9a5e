/**
 * A run's images in its exported `.jsonl` (docs/events.md, "Images"): after the event
 * lines, one line per image an event names, `{"runImage":{"ref":REF,"data":BASE64}}`.
 * The history itself never holds these lines (its images are files beside it); readers of
 * a history or an export skip them as not events, quietly.
 *
 * Everything here works on parsed JSON, never on the text: an export written again by
 * another JSON writer (Python's `json.dumps` puts a space after `:` and `,`; others sort
 * the keys) is the same export and keeps its images.
 */
import type { EventMessage, RunEvent } from '@shared/events';
import { isImageRef } from '@shared/image-ref';

/** The one key of an image line; a line without this text cannot be one. */
const IMAGE_KEY = 'runImage';

export interface ImageLine {
  /** as the line gives it: not yet checked against the ref pattern */
  ref: string;
  data: Buffer;
  /** 1-based, for warnings that must not repeat a hostile ref */
  lineNumber: number;
}

export function imageLine(ref: string, data: Buffer): string {
  return JSON.stringify({ [IMAGE_KEY]: { ref, data: data.toString('base64') } });
}

/** A parsed line is an image line when it is an object whose only key is `runImage`. */
export function isImageLineValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === IMAGE_KEY;
}

/**
 * The image refs the events' messages name (`message.image.ref` of `memory.appended`,
 * and of the messages an `llm.requested` carries), each once, in order. Only refs of the
 * ref pattern: anything else names no file (and is shown as missing).
 */
export function imageRefsOf(events: readonly RunEvent[]): string[] {
  const refs = new Set<string>();
  for (const ref of messageImageRefs(events)) if (isImageRef(ref)) refs.add(ref);
  return [...refs];
}

/** How many messages name their image by something that is not an image ref. */
export function badImageRefCount(events: readonly RunEvent[]): number {
  let count = 0;
  for (const ref of messageImageRefs(events)) if (!isImageRef(ref)) count++;
  return count;
}

/**
 * Every `image.ref` string the events' messages hold. Events from a file are checked only
 * for their envelope (`looksLikeRunEvent`), so each step of the way is checked here.
 */
function* messageImageRefs(events: readonly RunEvent[]): Generator<string> {
  for (const event of events) {
    const messages: unknown[] =
      event.type === 'memory.appended'
        ? [event.message]
        : event.type === 'llm.requested' && Array.isArray(event.messages)
          ? event.messages
          : [];
    for (const message of messages) {
      const ref = refOf(message);
      if (ref !== undefined) yield ref;
    }
  }
}

function refOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const image: unknown = (message as Partial<EventMessage>).image;
  if (typeof image !== 'object' || image === null) return undefined;
  const ref: unknown = (image as { ref?: unknown }).ref;
  return typeof ref === 'string' ? ref : undefined;
}

/** Where an image line starts, whatever the spacing: only to word a warning. */
const LOOKS_LIKE_IMAGE_LINE = new RegExp(`^\\s*\\{\\s*"${IMAGE_KEY}"\\s*:`);

/**
 * Splits an export into its event text and its images. Image lines leave a blank line in
 * the event text, so the event reader's warnings keep the file's line numbers. A line that
 * is an image line but not a readable one, or that starts like one but does not parse, is
 * reported (with its line number) and left out; any other line is left to the event reader.
 */
export function splitImageLines(
  content: string,
  source: string,
): { events: string; images: ImageLine[]; warnings: string[] } {
  if (!content.includes(IMAGE_KEY)) return { events: content, images: [], warnings: [] };
  const images: ImageLine[] = [];
  const warnings: string[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(IMAGE_KEY)) continue;
    const value = parseOrUndefined(line);
    if (value === undefined && !LOOKS_LIKE_IMAGE_LINE.test(line)) continue;
    if (value !== undefined && !isImageLineValue(value)) continue;
    lines[i] = '';
    const image = value === undefined ? undefined : readImage(value, i + 1);
    if (image) images.push(image);
    else warnings.push(`${source} line ${i + 1}: not a readable image line; skipped`);
  }
  return { events: lines.join('\n'), images, warnings };
}

function readImage(value: unknown, lineNumber: number): ImageLine | undefined {
  const image: unknown = (value as Record<string, unknown>)[IMAGE_KEY];
  if (typeof image !== 'object' || image === null) return undefined;
  const { ref, data } = image as { ref?: unknown; data?: unknown };
  if (typeof ref !== 'string' || typeof data !== 'string') return undefined;
  return { ref, data: Buffer.from(data, 'base64'), lineNumber };
}

/** The parsed line, or undefined when it is not JSON (JSON itself has no undefined). */
function parseOrUndefined(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
