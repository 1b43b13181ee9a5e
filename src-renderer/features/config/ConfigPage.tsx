import type { KeyboardEvent } from 'react';
import { profileOfTarget, type ConfigField, type ConfigTarget, type ConfigView } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { isDraftEmpty, pageView } from '../../store/config/config-draft';
import { FIELD_SPECS, type FieldSpec } from '../../store/config/config-fields';
import { ApiKeyField } from './ApiKeyField';
import { ConfigFieldRow } from './ConfigFieldRow';

/** One agent's settings (or the `[llm]` defaults), with Save, Discard and Test connection. */
export function ConfigPage({ config, target }: { config: ConfigView; target: ConfigTarget }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const draft = useWorkbench((s) => s.drafts[target]);
  const saveOp = useWorkbench((s) => s.saveOps[target]);
  const testOp = useWorkbench((s) => s.testOps[target]);
  const view = pageView(config, target);
  const fieldErrors = saveOp?.status === 'failed' ? (saveOp.fieldErrors ?? {}) : {};
  const isDirty = !isDraftEmpty(draft);
  const isBroken = config.error !== undefined;

  const row = (spec: FieldSpec) => {
    const field =
      spec.group === 'llm'
        ? (view.llm as Record<string, ConfigField<unknown>>)[spec.key]
        : view.settings
          ? (view.settings as Record<string, ConfigField<unknown>>)[spec.key]
          : undefined;
    if (!field) return null;
    return (
      <ConfigFieldRow
        key={spec.key}
        target={target}
        spec={spec}
        field={field}
        profile={view.profile}
        draft={draft?.fields[spec.key]}
        serverError={fieldErrors[spec.key]}
      />
    );
  };
  const save = () => void bridge.saveConfig(target);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (isDirty && !isBroken) save();
    }
  };

  return (
    <form
      className="config-page"
      aria-label={target === 'default' ? 'Default model settings' : `Settings of ${target}`}
      data-target={target}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={onKeyDown}
    >
      {profileOfTarget(target) !== null && (
        <button
          type="button"
          className="link"
          onClick={() => store.getState().showSettingsSection('profiles')}
        >
          ← Profiles
        </button>
      )}
      <p className="muted profile-note">
        {profileOfTarget(target) !== null
          ? `The profile [llm.${view.profile}]: what it does not set comes from [llm]. ${view.profileSharedWith.length > 0 ? `Used by ${view.profileSharedWith.join(', ')}.` : 'No agent uses it yet: assign it under Profiles, or pick it in New run or Batch.'}`
          : target === 'default'
            ? 'The [llm] section: every agent inherits these unless its own page overrides them.'
            : view.profile
              ? `Model settings are saved in [llm.${view.profile}]${view.profileSharedWith.length > 0 ? `, which ${view.profileSharedWith.join(', ')} also use${view.profileSharedWith.length === 1 ? 's' : ''}` : ''}; run settings in [agent.${target}].`
              : `This agent inherits [llm]. Changing a model setting here creates [llm.${target}] for ${target} alone; run settings go to [agent.${target}].`}
      </p>
      <fieldset>
        <legend>Model</legend>
        {FIELD_SPECS.filter((f) => f.group === 'llm' && !f.isAdvanced).map(row)}
        <ApiKeyField
          target={target}
          status={view.apiKey}
          secretStorage={config.secretStorage}
          draft={draft?.apiKey}
          error={fieldErrors.api_key}
        />
      </fieldset>
      {view.settings && (
        <fieldset>
          <legend>Run</legend>
          {FIELD_SPECS.filter((f) => f.group === 'settings' && !f.isAdvanced).map(row)}
        </fieldset>
      )}
      <details className="advanced">
        <summary>Advanced</summary>
        {FIELD_SPECS.filter((f) => f.isAdvanced && (f.group === 'llm' || view.settings)).map(row)}
      </details>
      <div className="config-actions">
        <button
          type="submit"
          data-testid={TEST_IDS.configSave}
          disabled={!isDirty || isBroken || saveOp?.status === 'running'}
        >
          {saveOp?.status === 'running' ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.configDiscard}
          disabled={!isDirty}
          onClick={() => {
            store.getState().discardDraft(target);
            store.getState().setSaveOp(target, { status: 'idle' });
          }}
        >
          Discard changes
        </button>
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.configTest}
          disabled={testOp?.status === 'running'}
          onClick={() => void bridge.testConnection(target)}
        >
          {testOp?.status === 'running' ? 'Testing…' : 'Test connection'}
        </button>
        {saveOp && saveOp.status !== 'idle' && saveOp.status !== 'running' && (
          <span
            className={saveOp.status === 'failed' ? 'field-error' : 'ok-text'}
            role={saveOp.status === 'failed' ? 'alert' : 'status'}
            data-testid={TEST_IDS.configSaveStatus}
          >
            {saveOp.message}
            {saveOp.status === 'failed' &&
              saveOp.other?.map((o) => (
                <span key={o} className="block">
                  {o}
                </span>
              ))}
          </span>
        )}
      </div>
      {testOp && testOp.status !== 'idle' && testOp.status !== 'running' && (
        <p
          className={testOp.status === 'failed' ? 'field-error' : 'ok-text'}
          role="status"
          data-testid={TEST_IDS.configTestStatus}
        >
          {testOp.message}
          {testOp.result && ` (${testOp.result.baseUrl}, ${testOp.result.latencyMs} ms)`}
          {isDirty && ' (tested with the unsaved changes)'}
        </p>
      )}
    </form>
  );
}
