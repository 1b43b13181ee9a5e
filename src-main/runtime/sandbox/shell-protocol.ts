/**
 * The wire protocol of the persistent shell, as pure functions (unit-tested without a
 * container).
 *
 * A command travels as one line: the command's bytes ANSI-C quoted (`$'\x..'`, so no
 * byte of it is ever shell syntax to our wrapper), `eval`ed in the shell itself (so `cd`
 * and `export` persist), with stdin from /dev/null (so a command that reads stdin cannot
 * swallow the next protocol line). After it, the shell prints a trailer framed by a
 * random per-command nonce on both streams: exit code, working directory and the
 * background jobs still alive. Output is never filtered: whatever precedes the trailer
 * is the command's output, byte for byte, including lines of digits (which the original
 * dropped, openmanus.md 4.3).
 */

const RS = '\x1e';
const US = '\x1f';

export interface ShellTrailer {
  exitCode: number;
  cwd: string;
  /** processes in the container (a glob over /proc, no fork): spots a fork bomb at once */
  processCount: number;
  /** process group ids of background jobs (kept alive when a later command is killed) */
  jobs: number[];
}

/** Bytes that are passed through as themselves; every other byte becomes \xHH. */
const SAFE = /[A-Za-z0-9_./,:=+@%-]/;

export function ansiCQuote(text: string): string {
  if (text.includes('\0')) throw new Error('A shell command cannot contain a NUL byte');
  let out = "$'";
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && SAFE.test(ch) ? ch : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}

/** The line that starts the shell's protocol: job control on, then report the shell's pid. */
export function readyLine(nonce: string): string {
  // `set -m` puts each job in its own process group, so a timed-out job can be killed
  // as a group while the shell survives (works without a TTY).
  return `set -m; printf '${RS}WBREADY${nonce}:%s${US}' "$$"\n`;
}

export function readyMarker(nonce: string): { start: Buffer; end: Buffer } {
  return { start: Buffer.from(`${RS}WBREADY${nonce}:`), end: Buffer.from(US) };
}

export function commandLine(command: string, nonce: string): string {
  const quoted = ansiCQuote(command);
  return (
    `__wb_c=${quoted}; eval "$__wb_c" </dev/null; __wb_rc=$?; unset __wb_c; __wb_p=(/proc/[0-9]*); ` +
    `printf '${RS}WB${nonce}:%s\\000%s\\000%s\\000' "$__wb_rc" "$PWD" "\${#__wb_p[@]}"; unset __wb_p; jobs -p; ` +
    `printf '${US}${nonce}${RS}'; printf '${RS}WB${nonce}${US}' >&2\n`
  );
}

export function stdoutMarkers(nonce: string): { start: Buffer; end: Buffer } {
  return { start: Buffer.from(`${RS}WB${nonce}:`), end: Buffer.from(`${US}${nonce}${RS}`) };
}

export function stderrMarker(nonce: string): Buffer {
  return Buffer.from(`${RS}WB${nonce}${US}`);
}

export function parseTrailer(body: Buffer): ShellTrailer {
  const text = body.toString('utf8');
  const [rc = '', cwd = '', count = '', jobsText = ''] = text.split('\0');
  const exitCode = Number(rc);
  return {
    exitCode: Number.isInteger(exitCode) ? exitCode : -1,
    cwd,
    processCount: Number(count) || 0,
    jobs: jobsText
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => Number.isInteger(n) && n > 0),
  };
}

/**
 * Finds a marker in a byte stream that arrives in chunks. Bytes before the marker are
 * output; bytes that could be the start of a marker split across chunks are held back
 * until the next chunk decides.
 */
export class MarkerScanner {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private marker: Buffer) {}

  /** Switches to a new marker (next command); held-back bytes are kept. */
  expect(marker: Buffer): void {
    this.marker = marker;
  }

  /**
   * Feeds a chunk. Returns the output bytes that are certainly not part of the marker,
   * and, once the marker is seen, the bytes after it (the scanner then holds nothing).
   */
  push(chunk: Buffer): { output: Buffer; found: boolean; after: Buffer } {
    const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    const at = buffer.indexOf(this.marker);
    if (at >= 0) {
      this.pending = Buffer.alloc(0);
      return {
        output: buffer.subarray(0, at),
        found: true,
        after: Buffer.from(buffer.subarray(at + this.marker.length)),
      };
    }
    const keep = partialSuffix(buffer, this.marker);
    this.pending = Buffer.from(buffer.subarray(buffer.length - keep));
    return {
      output: buffer.subarray(0, buffer.length - keep),
      found: false,
      after: Buffer.alloc(0),
    };
  }

  /** Releases held-back bytes (the stream ended without the marker). */
  flush(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }
}

/** Length of the longest suffix of `buffer` that is a proper prefix of `marker`. */
function partialSuffix(buffer: Buffer, marker: Buffer): number {
  const max = Math.min(buffer.length, marker.length - 1);
  for (let length = max; length > 0; length--) {
    if (buffer.subarray(buffer.length - length).equals(marker.subarray(0, length))) return length;
  }
  return 0;
}
