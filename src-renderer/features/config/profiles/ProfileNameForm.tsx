import { useState } from 'react';
import { profileNameProblem } from '@shared/ipc';
import { profileTestId } from '../../../test-ids';

/**
 * A profile name typed for create, rename or duplicate, checked as it is typed with the
 * host's own rules (`profileNameProblem`); the host checks again and its refusal is shown
 * in the same place.
 */
export function ProfileNameForm({
  existing,
  initial = '',
  action,
  onSubmit,
  onCancel,
}: {
  existing: readonly string[];
  initial?: string;
  /** the button's word: Create, Rename, Duplicate */
  action: string;
  /** resolves when done; rejects with the host's refusal */
  onSubmit(name: string): Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial);
  const [refused, setRefused] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const trimmed = name.trim();
  const problem = trimmed === '' ? null : profileNameProblem(trimmed, existing);
  const error = problem ?? refused;
  const submit = async () => {
    const why = profileNameProblem(trimmed, existing);
    if (why) return setRefused(why);
    setBusy(true);
    try {
      await onSubmit(trimmed);
      setName('');
      setRefused(null);
    } catch (e) {
      setRefused((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="profile-name-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <input
        aria-label={`${action}: profile name`}
        data-testid={profileTestId('name-input')}
        value={name}
        placeholder="e.g. fast"
        autoFocus={initial !== ''}
        onChange={(e) => {
          setName(e.target.value);
          setRefused(null);
        }}
      />
      <button type="submit" data-testid={profileTestId('name-save')} disabled={isBusy || !!problem}>
        {action}
      </button>
      {onCancel && (
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
      {error && (
        <span className="field-error" role="alert" data-testid={profileTestId('name-error')}>
          {error}
        </span>
      )}
    </form>
  );
}
