import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('refuses a damaged file with what to do', () => {
    const file = fresh();
    writeFileSync(file, '{oops', { mode: 0o600 });
    expect(() => new FileSecretStore(file).get('x')).toThrow(/damaged .* set the API keys again/);
  });
});
