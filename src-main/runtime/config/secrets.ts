/**
 * API keys saved from the UI live here, not in config.toml: config.toml says
 * `api_key = "secret:llm.manus"` and `<home>/secrets.json` holds the value, encoded by a
 * codec. The desktop app's codec encrypts with Electron safeStorage (OS keychain,
 * DPAPI, libsecret); headless, the value is kept as is in a file only the user can read
 * (0600). Values never leave the main process: callers learn only whether one is set.
 */
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import type { SecretStorageKind } from '@shared/ipc';
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
  /** every readable value, so the run manager can keep them out of events */
  values(): string[];
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

export class FileSecretStore implements SecretStore {
  private cache: { mtimeMs: number; size: number; data: SecretsFile } | null = null;

  constructor(
    readonly file: string,
    private readonly codec: SecretCodec = plainCodec,
    private readonly onWarning: (message: string) => void = (m) =>
      console.error(`[workbench] ${m}`),
  ) {}

  get kind(): SecretStorageKind {
    return this.codec.kind;
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
    const stored = this.read().secrets[name];
    if (stored === undefined) return 'missing';
    try {
      this.codec.decode(stored);
      return 'set';
    } catch {
      return 'unreadable';
    }
  }

  set(name: string, value: string): void {
    const data = this.read();
    this.write({ ...data, secrets: { ...data.secrets, [name]: this.codec.encode(value) } });
  }

  delete(name: string): void {
    const data = this.read();
    if (!(name in data.secrets)) return;
    const secrets = { ...data.secrets };
    delete secrets[name];
    this.write({ ...data, secrets });
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

  private read(): SecretsFile {
    if (!existsSync(this.file)) return { version: 1, secrets: {} };
    const stats = statSync(this.file);
    if (this.cache && this.cache.mtimeMs === stats.mtimeMs && this.cache.size === stats.size) {
      return this.cache.data;
    }
    if (process.platform !== 'win32' && (stats.mode & 0o077) !== 0) {
      // Someone widened the permissions: narrow them again before anything else reads it.
      chmodSync(this.file, 0o600);
      this.onWarning(`${this.file} was readable by other users; its permissions are now 0600`);
    }
    let data: SecretsFile;
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<SecretsFile>;
      if (typeof parsed.secrets !== 'object' || parsed.secrets === null)
        throw new Error('no secrets');
      data = { version: 1, secrets: parsed.secrets };
    } catch (error) {
      throw new Error(
        `${this.file} is damaged (${(error as Error).message}); move it away and set the API keys again`,
        { cause: error },
      );
    }
    this.cache = { mtimeMs: stats.mtimeMs, size: stats.size, data };
    return data;
  }

  private write(data: SecretsFile): void {
    writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`, 0o600);
    this.cache = null;
  }
}
