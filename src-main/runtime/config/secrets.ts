/**
 * API keys saved from the UI live here, not in config.toml: config.toml says
 * `api_key = "secret:llm.manus"` and `<home>/secrets.json` holds the value, encoded by a
 * codec. The desktop app's codec encrypts with Electron safeStorage (OS keychain,
 * DPAPI, libsecret); headless, the value is kept as is in a file only the user can read
 * (0600). Values never leave the main process: callers learn only whether one is set.
 */
import { chmodSync, renameSync, statSync } from 'node:fs';
import type { SecretStorageKind } from '@shared/ipc';
import { FileReadError, readRegularFile } from '../util/read-regular-file';
import { writeFileAtomic } from './atomic-write';

export const SECRET_REF_PREFIX = 'secret:';

export interface SecretCodec {
  readonly kind: SecretStorageKind;
  encode(value: string): string;
  /** throws when this codec cannot read the stored form (e.g. encrypted by the desktop app) */
  decode(stored: string): string;
}

export type SecretStatus = 'set' | 'missing' | 'unreadable';

export interface SecretStore {
  readonly kind: SecretStorageKind;
  get(name: string): string | undefined;
  status(name: string): SecretStatus;
  set(name: string, value: string): void;
  delete(name: string): void;
  /**
   * stores under TO what is stored under FROM, as stored (a key the desktop app
   * encrypted is copied without being read); nothing when FROM holds nothing
   */
  copy(from: string, to: string): void;
  /** every readable value, so the run manager can keep them out of events */
  values(): string[];
  /** what is wrong with the store (a damaged file), when something is */
  readonly problem?: string | null;
}

const PLAIN = 'plain:';

/** Headless: the value as is, protected by the file's permissions. */
export const plainCodec: SecretCodec = {
  kind: 'user-file',
  encode: (value) => `${PLAIN}${value}`,
  decode(stored) {
    if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
    throw new Error(
      'it was saved encrypted by the desktop app and can only be read there ' +
        '(for the command line, use api_key = "env:NAME")',
    );
  },
};

interface SecretsFile {
  version: 1;
  secrets: Record<string, string>;
}

/** A key store is a few hundred bytes per key; anything this large is not one. */
const MAX_SECRETS_BYTES = 1024 * 1024;

/**
 * Why the file cannot be used. A damaged store never blocks runs (issue 12 item 8: a
 * folder or corrupt secrets.json gave a stack trace and stopped every run): its keys
 * read as missing, the problem is said once, and saving a key moves a corrupt file
 * aside (`secrets.json.damaged-<time>`) instead of overwriting it.
 */
interface Damage {
  message: string;
  /** the file is a regular file with bad content: it may be moved aside on the next save */
  isMovable: boolean;
}

export class FileSecretStore implements SecretStore {
  private cache: { mtimeMs: number; size: number; data: SecretsFile } | null = null;
  private damage: Damage | null = null;
  private lastWarned = '';

  constructor(
    readonly file: string,
    private readonly codec: SecretCodec = plainCodec,
    private readonly onWarning: (message: string) => void = (m) =>
      console.error(`[workbench] ${m}`),
  ) {}

  get kind(): SecretStorageKind {
    return this.codec.kind;
  }

  /** What is wrong with the file, or null when it is fine (or absent). */
  get problem(): string | null {
    this.read();
    return this.damage?.message ?? null;
  }

  get(name: string): string | undefined {
    const stored = this.read().secrets[name];
    if (stored === undefined) return undefined;
    try {
      return this.codec.decode(stored);
    } catch (error) {
      this.onWarning(`The API key "${name}" cannot be read: ${(error as Error).message}`);
      return undefined;
    }
  }

  status(name: string): SecretStatus {
    const data = this.read();
    if (this.damage) return 'unreadable';
    const stored = data.secrets[name];
    if (stored === undefined) return 'missing';
    try {
      this.codec.decode(stored);
      return 'set';
    } catch {
      return 'unreadable';
    }
  }

  set(name: string, value: string): void {
    const data = this.writable();
    this.write({ ...data, secrets: { ...data.secrets, [name]: this.codec.encode(value) } });
  }

  delete(name: string): void {
    const data = this.writable();
    if (!(name in data.secrets)) return;
    const secrets = { ...data.secrets };
    delete secrets[name];
    this.write({ ...data, secrets });
  }

  copy(from: string, to: string): void {
    const data = this.writable();
    const stored = data.secrets[from];
    if (stored === undefined) return;
    this.write({ ...data, secrets: { ...data.secrets, [to]: stored } });
  }

  values(): string[] {
    const out: string[] = [];
    for (const stored of Object.values(this.read().secrets)) {
      try {
        out.push(this.codec.decode(stored));
      } catch {
        // unreadable here, so it cannot leak from here either
      }
    }
    return out;
  }

  /** The current keys for a change; a corrupt file is moved aside first (never lost). */
  private writable(): SecretsFile {
    const data = this.read();
    if (!this.damage) return data;
    if (!this.damage.isMovable) {
      throw new Error(`${this.damage.message}. Remove or rename it, then save the key again.`);
    }
    const aside = `${this.file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(this.file, aside);
    this.onWarning(`${this.damage.message}; it was moved to ${aside} and a new one is started`);
    this.damage = null;
    this.cache = null;
    return { version: 1, secrets: {} };
  }

  private read(): SecretsFile {
    const empty: SecretsFile = { version: 1, secrets: {} };
    let stats;
    try {
      stats = statSync(this.file);
    } catch {
      this.damage = null;
      return empty; // no file: no keys
    }
    if (this.cache && this.cache.mtimeMs === stats.mtimeMs && this.cache.size === stats.size) {
      return this.cache.data;
    }
    if (stats.isFile() && process.platform !== 'win32' && (stats.mode & 0o077) !== 0) {
      // Someone widened the permissions: narrow them again before anything else reads it.
      chmodSync(this.file, 0o600);
      this.onWarning(`${this.file} was readable by other users; its permissions are now 0600`);
    }
    let data: SecretsFile;
    try {
      data = parseSecrets(readRegularFile(this.file, MAX_SECRETS_BYTES, 'The key store'));
    } catch (error) {
      const isReadError = error instanceof FileReadError;
      const message = isReadError
        ? `${(error as Error).message}; API keys saved from the UI cannot be read`
        : `The key store ${this.file} is damaged (${(error as Error).message}); API keys saved from the UI cannot be read`;
      this.damage = { message, isMovable: stats.isFile() };
      if (message !== this.lastWarned) {
        this.lastWarned = message;
        this.onWarning(message);
      }
      return empty;
    }
    this.damage = null;
    this.cache = { mtimeMs: stats.mtimeMs, size: stats.size, data };
    return data;
  }

  private write(data: SecretsFile): void {
    writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`, 0o600);
    this.cache = null;
  }
}

function parseSecrets(text: string): SecretsFile {
  const parsed = JSON.parse(text) as Partial<SecretsFile> | null;
  const secrets = parsed?.secrets;
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
    throw new Error('it has no "secrets" object');
  }
  for (const [name, value] of Object.entries(secrets)) {
    if (typeof value !== 'string') throw new Error(`the value of "${name}" is not a string`);
  }
  return { version: 1, secrets: secrets as Record<string, string> };
}
