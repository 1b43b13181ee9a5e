import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FileSecretStore } from '../runtime/config/secrets';
import { createSafeStorageCodec, secretStorageKind } from './safe-storage';
import { safeStorage } from './testing/electron-mock';

describe('safeStorage codec (E13)', () => {
  it('names the protection: OS keychain, Linux basic_text, or none', () => {
    expect(secretStorageKind(safeStorage, 'linux')).toBe('os-encrypted');
    safeStorage.getSelectedStorageBackend.mockReturnValueOnce('basic_text');
    expect(secretStorageKind(safeStorage, 'linux')).toBe('basic-text');
    safeStorage.isEncryptionAvailable.mockReturnValueOnce(false);
    expect(secretStorageKind(safeStorage, 'darwin')).toBe('user-file');
  });

  it('a key the keychain can no longer decrypt reads as "not set", without a crash', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wb-safe-')), 'secrets.json');
    const warnings: string[] = [];
    const store = new FileSecretStore(file, createSafeStorageCodec(safeStorage, 'linux'), (w) =>
      warnings.push(w),
    );
    store.set('llm', 'sk-keychain-0123456789');
    expect(store.get('llm')).toBe('sk-keychain-0123456789');
    safeStorage.decryptString.mockImplementationOnce(() => {
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
      );
    });
    expect(store.get('llm')).toBeUndefined();
    expect(warnings.join()).toMatch(/set the key again/);
    vi.restoreAllMocks();
  });
});
