/**
 * API keys in the desktop app are encrypted with Electron safeStorage (macOS Keychain,
 * Windows DPAPI, libsecret/kwallet on Linux) before they reach secrets.json. On Linux
 * without a secret service, safeStorage falls back to `basic_text` (a hard-coded
 * password: obfuscation, not protection); the kind says so, so the UI can warn. Keys
 * saved by headless runs (plain, 0600) are still readable here. Only this module
 * touches safeStorage, so swapping to its async API later is one change.
 */
import type { SafeStorage } from 'electron';
import type { SecretStorageKind } from '@shared/ipc';
import { plainCodec, type SecretCodec } from '../runtime/config/secrets';

const SAFE = 'safe:';

type SafeStorageLike = Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
>;

export function secretStorageKind(
  storage: SafeStorageLike,
  platform = process.platform,
): SecretStorageKind {
  if (!storage.isEncryptionAvailable()) return 'user-file';
  if (platform === 'linux' && storage.getSelectedStorageBackend() === 'basic_text')
    return 'basic-text';
  return 'os-encrypted';
}

/** Must be called after the app is ready (safeStorage needs it on Linux). */
export function createSafeStorageCodec(
  storage: SafeStorageLike,
  platform = process.platform,
): SecretCodec {
  const kind = secretStorageKind(storage, platform);
  // No encryption at all here: keep keys as the headless app does, in a 0600 file.
  if (kind === 'user-file') return plainCodec;
  return {
    kind,
    encode: (value) => `${SAFE}${storage.encryptString(value).toString('base64')}`,
    decode(stored) {
      if (stored.startsWith(SAFE)) {
        try {
          return storage.decryptString(Buffer.from(stored.slice(SAFE.length), 'base64'));
        } catch (error) {
          throw new Error(
            'it cannot be decrypted any more (the system keychain changed); set the key again',
            { cause: error },
          );
        }
      }
      return plainCodec.decode(stored);
    },
  };
}
