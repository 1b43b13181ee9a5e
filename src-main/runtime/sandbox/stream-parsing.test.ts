/**
 * The byte-level pieces of command output: Docker's stream demultiplexer, the capped
 * output buffer, and the persistent shell's protocol (quoting and trailer parsing).
 * The quoting is checked against a real bash.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CappedOutput, truncationMarker } from './capped-output';
import { Demuxer, frame, type StreamId } from './demux';
import {
  MarkerScanner,
  ansiCQuote,
  commandLine,
  parseTrailer,
  stderrMarker,
  stdoutMarkers,
} from './shell-protocol';

describe('Demuxer', () => {
  it('splits stdout and stderr correctly whatever the chunk boundaries', () => {
    const payloads: [StreamId, Buffer][] = [
      ['stdout', Buffer.from('hello\n')],
      ['stderr', Buffer.from('oops\n')],
      ['stdout', Buffer.from(Array.from({ length: 256 }, (_, i) => i))],
      ['stdout', Buffer.from('42\n')],
    ];
    const wire = Buffer.concat(payloads.map(([s, p]) => frame(s, p)));
    for (const size of [1, 3, 7, 8, 9, 64, wire.length]) {
      const got: Record<StreamId, Buffer[]> = { stdout: [], stderr: [] };
      const demuxer = new Demuxer((stream, payload) => got[stream].push(Buffer.from(payload)));
      for (let i = 0; i < wire.length; i += size) demuxer.push(wire.subarray(i, i + size));
      const expected = (s: StreamId) =>
        Buffer.concat(payloads.filter(([x]) => x === s).map(([, p]) => p));
      expect(Buffer.concat(got.stdout).equals(expected('stdout')), `chunk ${size}`).toBe(true);
      expect(Buffer.concat(got.stderr).equals(expected('stderr')), `chunk ${size}`).toBe(true);
      expect(demuxer.buffered).toBe(0);
    }
  });
});

describe('CappedOutput', () => {
  it('keeps everything under the cap, byte for byte', () => {
    const out = new CappedOutput(64);
    out.push(Buffer.from('1\n22\n'));
    out.push(Buffer.from('333\n'));
    expect(out.toString()).toBe('1\n22\n333\n');
    expect(out.isTruncated).toBe(false);
  });

  it('keeps the head and the tail of a flood and says how much was cut', () => {
    const out = new CappedOutput(100);
    for (let i = 0; i < 10_000; i++) out.push(Buffer.from(`line ${i}\n`));
    const text = out.toString();
    expect(out.totalBytes).toBe(
      Array.from({ length: 10_000 }, (_, i) => `line ${i}\n`.length).reduce((a, b) => a + b),
    );
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('line 9999\n')).toBe(true);
    expect(text).toContain(truncationMarker(out.omittedBytes));
    expect(Buffer.byteLength(text)).toBeLessThan(100 + 80);
  });

  it('cuts on character boundaries, never inside a multi-byte character', () => {
    const out = new CappedOutput(20);
    out.push(Buffer.from('€'.repeat(40)));
    const text = out.toString();
    expect(text).not.toContain('\uFFFD');
    expect(text.startsWith('€€€')).toBe(true);
    expect(text.endsWith('€€€')).toBe(true);
  });
});

describe('shell protocol', () => {
  it('quotes any command so bash sees exactly its bytes', () => {
    const samples = [
      `echo "it's" $HOME \`id\` $(whoami) ; | & > < * ? [ ] { } ~ # !`,
      'multi\nline\ttabs\\backslash',
      'ünïcödé 🚀',
      "'; rm -rf / #",
    ];
    for (const sample of samples) {
      const out = execFileSync('bash', ['-c', `x=${ansiCQuote(sample)}; printf %s "$x"`]);
      expect(out.toString('utf8')).toBe(sample);
    }
    expect(() => ansiCQuote('a\0b')).toThrow(/NUL/);
  });

  it('frames a command so output, exit code, cwd and jobs come back intact', () => {
    const nonce = 'abc123';
    const script = commandLine('cd /tmp; echo 42; echo 7 >&2; printf tail; (exit 3)', nonce);
    const out = execFileSync('bash', ['-c', `${script}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = new MarkerScanner(stdoutMarkers(nonce).start).push(out);
    expect(stdout.found).toBe(true);
    expect(stdout.output.toString()).toBe('42\ntail');
    const end = stdout.after.indexOf(stdoutMarkers(nonce).end);
    const trailer = parseTrailer(stdout.after.subarray(0, end));
    expect(trailer).toMatchObject({ exitCode: 3, cwd: '/tmp', jobs: [] });
    expect(trailer.processCount).toBeGreaterThan(1);
  });

  it('finds a marker split across chunks and releases no byte of it as output', () => {
    const marker = stderrMarker('n0nce');
    const stream = Buffer.concat([Buffer.from('before\n'), marker, Buffer.from('after')]);
    for (let size = 1; size <= stream.length; size++) {
      const scanner = new MarkerScanner(marker);
      let output = Buffer.alloc(0) as Buffer;
      let after = Buffer.alloc(0) as Buffer;
      let found = false;
      for (let i = 0; i < stream.length; i += size) {
        const chunk = stream.subarray(i, i + size);
        if (found) {
          after = Buffer.concat([after, chunk]);
          continue;
        }
        const r = scanner.push(chunk);
        output = Buffer.concat([output, r.output]);
        if (r.found) {
          found = true;
          after = r.after;
        }
      }
      expect(found, `chunk ${size}`).toBe(true);
      expect(output.toString(), `chunk ${size}`).toBe('before\n');
      expect(after.toString(), `chunk ${size}`).toBe('after');
    }
  });

  it('reads the process count and background job ids from the trailer', () => {
    expect(parseTrailer(Buffer.from('0\x00/workspace\x005\x00123\n456\n'))).toEqual({
      exitCode: 0,
      cwd: '/workspace',
      processCount: 5,
      jobs: [123, 456],
    });
  });
});
