import { useState } from 'react';
import {
  describeConfigSource,
  type ApiKeyEdit,
  type ApiKeyStatus,
  type ConfigTarget,
  type SecretStorageKind,
} from '@shared/ipc';
import { configErrorId, configFieldId, TEST_IDS } from '../../test-ids';
import { useWorkbenchStore } from '../../store/StoreProvider';

const STORAGE_TEXT: Record<SecretStorageKind, string> = {
  'os-encrypted': 'encrypted with the system keychain',
  'basic-text': 'obfuscated only: this system has no keychain',
  'user-file': 'in a file only your user can read',
};

function describeKey(status: ApiKeyStatus, storage: SecretStorageKind): string {
  if (status.storage === 'env') {
    return status.isSet
      ? `read from the environment variable ${status.envVar}`
      : `from ${status.envVar}, which is not set`;
  }
  if (!status.isSet) return 'No key set';
  if (status.storage === 'inline') return 'A key is set, written in config.toml';
  return `A key is set, stored ${STORAGE_TEXT[storage]}`;
}

/**
 * The API key: write-only. The page learns only whether a key is set and how it is
 * held; a new key goes from this input to the main process on save and is never shown.
 */
export function ApiKeyField(props: {
  target: ConfigTarget;
  status: ApiKeyStatus;
  secretStorage: SecretStorageKind;
  draft: ApiKeyEdit | undefined;
  error?: string | undefined;
}) {
  const { target, status, secretStorage, draft, error } = props;
  const store = useWorkbenchStore();
  const [mode, setMode] = useState<'key' | 'env'>('key');
  const id = configFieldId(target, 'api_key');
  const edit = (e: ApiKeyEdit | undefined) => store.getState().editApiKey(target, e);
  const isEditing = draft?.action === 'set' || draft?.action === 'env';

  return (
    <div className={`cfg-row${draft ? ' is-changed' : ''}${error ? ' has-error' : ''}`}>
      <label htmlFor={id} className="cfg-label">
        API key<span className="mono muted cfg-key">api_key</span>
      </label>
      <div className="cfg-input">
        <span
          className={`key-status ${status.isSet ? 'is-set' : 'is-unset'}`}
          data-testid={TEST_IDS.configKeyStatus}
        >
          {draft?.action === 'clear'
            ? 'The key will be removed on save'
            : describeKey(status, secretStorage)}
          {status.isSet && draft?.action !== 'clear' && (
            <span className="muted"> · from {describeConfigSource(status.source)}</span>
          )}
        </span>
        {!isEditing && draft?.action !== 'clear' && (
          <>
            <button
              type="button"
              className="link"
              onClick={() => edit({ action: 'set', value: '' })}
            >
              {status.isSet ? 'replace' : 'set a key'}
            </button>
            {status.isSet && (
              <button
                type="button"
                className="link"
                data-testid={TEST_IDS.configKeyClear}
                onClick={() => edit({ action: 'clear' })}
              >
                clear
              </button>
            )}
          </>
        )}
        {draft?.action === 'clear' && (
          <button type="button" className="link" onClick={() => edit(undefined)}>
            undo
          </button>
        )}
      </div>
      {isEditing && (
        <div className="cfg-input key-edit">
          <select
            aria-label="Key source"
            value={mode}
            onChange={(e) => {
              const next = e.target.value as 'key' | 'env';
              setMode(next);
              edit(next === 'key' ? { action: 'set', value: '' } : { action: 'env', name: '' });
            }}
          >
            <option value="key">the key itself</option>
            <option value="env">an environment variable</option>
          </select>
          {draft?.action === 'set' && (
            <input
              id={id}
              data-testid={id}
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder="sk-…"
              aria-invalid={error ? true : undefined}
              value={draft.value}
              onChange={(e) => edit({ action: 'set', value: e.target.value })}
            />
          )}
          {draft?.action === 'env' && (
            <input
              id={id}
              data-testid={id}
              type="text"
              spellCheck={false}
              placeholder="OPENAI_API_KEY"
              aria-invalid={error ? true : undefined}
              value={draft.name}
              onChange={(e) => edit({ action: 'env', name: e.target.value })}
            />
          )}
          <button
            type="button"
            className="link"
            onClick={() => {
              setMode('key');
              edit(undefined);
            }}
          >
            cancel
          </button>
        </div>
      )}
      {error && (
        <p
          className="field-error cfg-error"
          role="alert"
          data-testid={configErrorId(target, 'api_key')}
        >
          API key: {error}
        </p>
      )}
      <p className="cfg-help muted">
        Never shown again after saving; runs and logs never contain it.
      </p>
    </div>
  );
}
