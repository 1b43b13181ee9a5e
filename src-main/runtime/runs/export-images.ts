/**
 * A run's images in its exported `.jsonl` (docs/events.md, "Images"): after the event
 * lines, one line per image an event names, `{"runImage":{"ref":REF,"data":BASE64}}`.
 * The history itself never holds these lines (its images are files beside it); readers of
 * a history or an export skip them as not events, quietly.
 */
import { IMAGE_REF_PATTERN } from '@shared/image-ref';

/** How an image line starts: a reader can skip it without parsing megabytes of base64. */
export const IMAGE_LINE_PREFIX = '{"runImage":';

export interface ImageLine {
  ref: string;
  data: Buffer;
}

export function imageLine(ref: string, data: Buffer): string {
  return JSON.stringify({ runImage: { ref, data: data.toString('base64') } });
}

/** A ref as an event carries it (in `image.ref`), anywhere in an event line. */
const REF_IN_EVENT = new RegExp(`"ref":"(${IMAGE_REF_PATTERN.source.slice(1, -1)})"`, 'g');

/** The image refs the event lines name, each once, in order. */
export function imageRefsIn(lines: readonly string[]): string[] {
  const refs = new Set<string>();
  for (const line of lines) {
    // only a line that names an image pays for the regular expression
    if (!line.includes('"ref":"')) continue;
    for (const match of line.matchAll(REF_IN_EVENT)) refs.add(match[1]!);
  }
  return [...refs];
}

/**
 * Splits an export into its event text and its images; a line that starts like an image
 * line but is not one is reported (with its line number) and left out.
 */
export function splitImageLines(
  content: string,
  source: string,
): { events: string; images: ImageLine[]; warnings: string[] } {
  if (!content.includes(IMAGE_LINE_PREFIX)) return { events: content, images: [], warnings: [] };
  const images: ImageLine[] = [];
  const warnings: string[] = [];
  const kept: string[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith(IMAGE_LINE_PREFIX)) {
      kept.push(line);
      continue;
    }
    const image = parseImageLine(line);
    if (image) images.push(image);
    else warnings.push(`${source} line ${i + 1}: not a readable image line; skipped`);
  }
  return { events: kept.join('\n'), images, warnings };
}

function parseImageLine(line: string): ImageLine | undefined {
  try {
    const value = (JSON.parse(line) as { runImage?: unknown }).runImage;
    if (typeof value !== 'object' || value === null) return undefined;
    const { ref, data } = value as { ref?: unknown; data?: unknown };
    if (typeof ref !== 'string' || typeof data !== 'string') return undefined;
    return { ref, data: Buffer.from(data, 'base64') };
  } catch {
    return undefined;
  }
}
