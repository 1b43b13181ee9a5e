import { useState } from 'react';
import { TEST_IDS } from '../../test-ids';

/** An agent name asked in place (New, Duplicate, Rename, Import as): the action's button and a name. */
export function NameForm({
  action,
  initial,
  onSubmit,
  onCancel,
}: {
  action: string;
  initial: string;
  onSubmit(name: string): Promise<void>;
  onCancel(): void;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    try {
      setError(null);
      await onSubmit(name.trim());
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <form
      className="agent-name-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label>
        Name{' '}
        <input
          autoFocus
          data-testid={TEST_IDS.agentNameInput}
          value={name}
          pattern="[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}"
          title="1-64 letters, digits, _ . - (starting with a letter or digit)"
          onChange={(e) => setName(e.target.value)}
        />
      </label>{' '}
      <button type="submit" data-testid={TEST_IDS.agentNameSubmit} disabled={!name.trim()}>
        {action}
      </button>{' '}
      <button type="button" className="link" onClick={onCancel}>
        cancel
      </button>
      {error && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.agentError}>
          {error}
        </p>
      )}
    </form>
  );
}
