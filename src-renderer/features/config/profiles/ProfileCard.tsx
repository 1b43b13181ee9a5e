import { useState } from 'react';
import {
  DEFAULT_PROFILE,
  describeUse,
  PRICE_HOW_TO,
  PRICE_UNKNOWN,
  profileTarget,
  type ProfilePrice,
  type ProfileView,
} from '@shared/ipc';
import { profileTestId } from '../../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../../store/StoreProvider';
import { ProfileNameForm } from './ProfileNameForm';

type Mode = 'idle' | 'rename' | 'duplicate' | 'delete';

const usd = (n: number) => `$${n.toFixed(2)}`;

function PriceLine({ price, model }: { price: ProfilePrice | null; model: string }) {
  if (!price) {
    return (
      <span className="price-unknown" data-testid={profileTestId('price')} title={PRICE_HOW_TO}>
        {PRICE_UNKNOWN}: {PRICE_HOW_TO}
      </span>
    );
  }
  return (
    <span data-testid={profileTestId('price')}>
      {usd(price.input)} in / {usd(price.output)} out per million tokens (
      {price.source === 'profile' ? 'set on this profile' : `list price of ${model}`})
    </span>
  );
}

/** One profile: what it is, who uses it, its price, and what can be done with it. */
export function ProfileCard({ profile, names }: { profile: ProfileView; names: string[] }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const isDefault = profile.name === DEFAULT_PROFILE;
  const target = isDefault ? 'default' : profileTarget(profile.name);
  const testOp = useWorkbench((s) => s.testOps[target]);
  const [mode, setMode] = useState<Mode>('idle');
  const [reassignTo, setReassignTo] = useState(DEFAULT_PROFILE);
  const [error, setError] = useState<string | null>(null);
  const edit = bridge.settings.editProfile;
  const done = () => setMode('idle');
  const remove = async () => {
    setError(null);
    try {
      await edit({
        action: 'delete',
        name: profile.name,
        ...(profile.usedBy.length > 0 ? { reassignTo } : {}),
      });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const key = profile.apiKey;
  return (
    <li className="profile-card" data-testid={profileTestId('card', profile.name)}>
      <div className="profile-card-head">
        <strong className="mono">{isDefault ? '[llm] default' : `[llm.${profile.name}]`}</strong>{' '}
        <span className="mono">{profile.llm.model.value}</span>{' '}
        <span className="muted">at {profile.llm.base_url.value}</span>
      </div>
      <div className="muted">
        API key:{' '}
        {key.isSet
          ? `set (${key.storage === 'env' ? `env:${key.envVar}` : key.storage})`
          : 'not set (runs use the built-in demo model)'}
      </div>
      <div>
        <PriceLine price={profile.price} model={profile.llm.model.value} />
      </div>
      <div data-testid={profileTestId('used-by', profile.name)}>
        Used by:{' '}
        {profile.usedBy.length > 0 ? profile.usedBy.map(describeUse).join(', ') : 'no agent'}
      </div>
      <div className="config-actions">
        <button
          type="button"
          data-testid={profileTestId('edit', profile.name)}
          onClick={() => store.getState().showConfig(target)}
        >
          Edit
        </button>
        <button
          type="button"
          className="secondary"
          data-testid={profileTestId('test', profile.name)}
          disabled={testOp?.status === 'running'}
          onClick={() => void bridge.testConnection(target)}
        >
          {testOp?.status === 'running' ? 'Testing…' : 'Test connection'}
        </button>
        {!isDefault && (
          <button
            type="button"
            className="secondary"
            data-testid={profileTestId('rename', profile.name)}
            onClick={() => setMode('rename')}
          >
            Rename
          </button>
        )}
        <button
          type="button"
          className="secondary"
          data-testid={profileTestId('duplicate', profile.name)}
          onClick={() => setMode('duplicate')}
        >
          Duplicate
        </button>
        {!isDefault && (
          <button
            type="button"
            className="secondary"
            data-testid={profileTestId('delete', profile.name)}
            onClick={() => setMode('delete')}
          >
            Delete
          </button>
        )}
      </div>
      {testOp && testOp.status !== 'idle' && testOp.status !== 'running' && (
        <p
          className={testOp.status === 'failed' ? 'field-error' : 'ok-text'}
          role="status"
          data-testid={profileTestId('test-status', profile.name)}
        >
          {testOp.message}
          {testOp.result &&
            ` (${testOp.result.model} at ${testOp.result.baseUrl}, ${testOp.result.latencyMs} ms)`}
        </p>
      )}
      {mode === 'rename' && (
        <ProfileNameForm
          existing={names}
          initial={profile.name}
          action="Rename"
          onCancel={done}
          onSubmit={async (to) => {
            await edit({ action: 'rename', name: profile.name, to });
            done();
          }}
        />
      )}
      {mode === 'duplicate' && (
        <ProfileNameForm
          existing={names}
          action="Duplicate"
          onCancel={done}
          onSubmit={async (name) => {
            await edit({ action: 'create', name, from: profile.name });
            done();
          }}
        />
      )}
      {mode === 'delete' && (
        <div className="profile-delete" role="group" aria-label={`Delete ${profile.name}`}>
          {profile.usedBy.length > 0 ? (
            <label>
              {profile.usedBy.map((u) => u.agent).join(', ')}{' '}
              {profile.usedBy.length === 1 ? 'uses' : 'use'} this profile. They will use{' '}
              <select
                data-testid={profileTestId('reassign', profile.name)}
                value={reassignTo}
                onChange={(e) => setReassignTo(e.target.value)}
              >
                {[DEFAULT_PROFILE, ...names.filter((n) => n !== profile.name)].map((n) => (
                  <option key={n} value={n}>
                    {n === DEFAULT_PROFILE ? '[llm] (or the agent’s own [llm.AGENT])' : n}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <span>No agent uses this profile.</span>
          )}{' '}
          <button
            type="button"
            data-testid={profileTestId('delete-confirm', profile.name)}
            onClick={() => void remove()}
          >
            Delete [llm.{profile.name}]
          </button>
          <button type="button" className="secondary" onClick={done}>
            Cancel
          </button>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
