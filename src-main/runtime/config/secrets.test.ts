import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore, type SecretCodec } from './secrets';

function fresh() {
  return join(mkdtempSync(join(tmpdir(), 'wb-secrets-')), 'secrets.json');
}

/** Stands in for safeStorage: what it writes, the headless codec cannot read. */
const reversed: SecretCodec = {
  kind: 'os-encrypted',
  encode: (v) => `safe:${[...v].reverse().join('')}`,
  decode: (s) => {
    if (s.startsWith('safe:')) return [...s.slice(5)].reverse().join('');
    if (s.startsWith('plain:')) return s.slice(6);
    throw new Error('unknown form');
  },
};

describe('FileSecretStore', () => {
  it('keeps values in a file only the user can read, and narrows wider permissions', () => {
    const file = fresh();
    const warnings: string[] = [];
    const store = new FileSecretStore(file, undefined, (w) => warnings.push(w));
    store.set('llm', 'sk-abc-123456');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(store.get('llm')).toBe('sk-abc-123456');
    chmodSync(file, 0o644);
    writeFileSync(file, readFileSync(file, 'utf8') + ' '); // new mtime/size: re-read
    expect(store.status('llm')).toBe('set');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(warnings.join()).toMatch(/readable by other users/);
    store.delete('llm');
    expect(store.status('llm')).toBe('missing');
  });

  it('reports a key encrypted by the desktop app as unreadable headless, without failing', () => {
    const file = fresh();
    new FileSecretStore(file, reversed).set('llm.manus', 'sk-desktop-999999');
    expect(readFileSync(file, 'utf8')).not.toContain('sk-desktop-999999');
    const warnings: string[] = [];
    const headless = new FileSecretStore(file, undefined, (w) => warnings.push(w));
    expect(headless.status('llm.manus')).toBe('unreadable');
    expect(headless.get('llm.manus')).toBeUndefined();
    expect(headless.values()).toEqual([]);
    expect(warnings.join()).toMatch(/env:NAME/);
    // the desktop codec still reads keys saved headless
    new FileSecretStore(file).set('llm', 'sk-plain-111111');
    expect(new FileSecretStore(file, reversed).get('llm')).toBe('sk-plain-111111');
  });

  // Issue 12 item 8: a folder or a corrupt secrets.json threw from every read, which
  // stopped every run (run:start reads the stored keys to redact them) with a stack trace.
  const damaged: [string, (file: string) => void, boolean][] = [
    ['not JSON', (f) => writeFileSync(f, '{oops', { mode: 0o600 }), true],
    ['JSON null', (f) => writeFileSync(f, 'null', { mode: 0o600 }), true],
    ['secrets as an array', (f) => writeFileSync(f, '{"secrets":[]}', { mode: 0o600 }), true],
    [
      'a value that is no string',
      (f) => writeFileSync(f, '{"secrets":{"llm":1}}', { mode: 0o600 }),
      true,
    ],
    ['a folder', (f) => mkdirSync(f), false],
    ['a FIFO', (f) => execFileSync('mkfifo', ['-m', '600', f]), false],
    ['a link to /dev/zero', (f) => symlinkSync('/dev/zero', f), false],
    ['2 MB of text', (f) => writeFileSync(f, 'x'.repeat(2 * 1024 * 1024), { mode: 0o600 }), true],
  ];

  it.each(damaged)('reads %s as "no keys", says so once, and never throws', (_, make) => {
    const file = fresh();
    make(file);
    const warnings: string[] = [];
    const store = new FileSecretStore(file, undefined, (w) => warnings.push(w));
    expect(store.get('llm')).toBeUndefined();
    expect(store.status('llm')).toBe('unreadable');
    expect(store.values()).toEqual([]);
    expect(store.problem).toContain(file);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/API keys saved from the UI cannot be read/);
  });

  it.each(damaged)('saving a key over %s keeps the old file', (_, make, isMovable) => {
    const file = fresh();
    make(file);
    const warnings: string[] = [];
    const store = new FileSecretStore(file, undefined, (w) => warnings.push(w));
    if (!isMovable) {
      expect(() => store.set('llm', 'sk-new-1234567')).toThrow(/Remove or rename it/);
      return;
    }
    const before = readFileSync(file, 'utf8');
    store.set('llm', 'sk-new-1234567');
    expect(store.get('llm')).toBe('sk-new-1234567');
    const aside = readdirSync(dirname(file)).find((n) => n.startsWith('secrets.json.damaged-'));
    expect(aside).toBeDefined();
    expect(readFileSync(join(dirname(file), aside as string), 'utf8')).toBe(before);
    expect(warnings.join()).toContain('moved to');
  });
});
