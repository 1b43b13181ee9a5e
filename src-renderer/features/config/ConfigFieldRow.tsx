import { memo } from 'react';
import { describeConfigSource, type ConfigField, type ConfigTarget } from '@shared/ipc';
import { configErrorId, configFieldId, configResetId } from '../../test-ids';
import { useWorkbenchStore } from '../../store/StoreProvider';
import { isOverridden } from '../../store/config/config-draft';
import { parseFieldValue, type FieldSpec, type RawValue } from '../../store/config/config-fields';

export interface ConfigFieldRowProps {
  target: ConfigTarget;
  spec: FieldSpec;
  field: ConfigField<unknown>;
  /** the page's own section: `[llm.NAME]` profile name (null = none yet) */
  profile: string | null;
  /** undefined = unchanged; null = reset to inherited on save */
  draft: RawValue | null | undefined;
  serverError?: string | undefined;
}

/** The section a save of this field writes. */
function ownSection(target: ConfigTarget, spec: FieldSpec, profile: string | null): string {
  if (target === 'default') return '[llm]';
  return spec.group === 'llm' ? `[llm.${profile ?? target}]` : `[agent.${target}]`;
}

/** One setting: its input, where its value comes from, reset, and what is wrong with it. */
export const ConfigFieldRow = memo(function ConfigFieldRow(props: ConfigFieldRowProps) {
  const { target, spec, field, profile, draft, serverError } = props;
  const store = useWorkbenchStore();
  const id = configFieldId(target, spec.key);
  const overridden = isOverridden(field.source, target, profile);
  const isResetPending = draft === null;
  const isChanged = draft !== undefined && draft !== null;
  const inlineError = isChanged
    ? (() => {
        const parsed = parseFieldValue(spec, draft);
        return 'error' in parsed ? parsed.error : undefined;
      })()
    : undefined;
  const error = inlineError ?? (isChanged ? undefined : serverError);
  const shown: RawValue = isChanged
    ? draft
    : spec.kind === 'bool'
      ? Boolean(field.value)
      : String(field.value ?? '');
  const edit = (value: RawValue) => store.getState().editField(target, spec.key, value);
  const common = {
    id,
    'data-testid': id,
    'data-source': overridden ? 'overridden' : 'inherited',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': `${id}-help`,
    disabled: isResetPending,
  } as const;

  let input;
  if (spec.kind === 'bool') {
    input = (
      <input
        type="checkbox"
        {...common}
        checked={shown === true}
        onChange={(e) => edit(e.target.checked)}
      />
    );
  } else if (spec.kind === 'enum') {
    input = (
      <select {...common} value={String(shown)} onChange={(e) => edit(e.target.value)}>
        {spec.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        type="text"
        inputMode={
          spec.kind === 'int'
            ? 'numeric'
            : spec.kind === 'number'
              ? 'decimal'
              : spec.kind === 'url'
                ? 'url'
                : 'text'
        }
        spellCheck={false}
        autoComplete="off"
        placeholder={spec.emptyMeans}
        {...common}
        value={String(shown)}
        onChange={(e) => edit(e.target.value)}
      />
    );
  }

  return (
    <div
      className={`cfg-row${overridden ? ' is-overridden' : ''}${isChanged || isResetPending ? ' is-changed' : ''}${error ? ' has-error' : ''}`}
    >
      <label htmlFor={id} className="cfg-label">
        {spec.label}
        <span className="mono muted cfg-key">{spec.key}</span>
      </label>
      <div className="cfg-input">
        {input}
        <span className={`cfg-source ${overridden ? 'is-own' : ''}`}>
          {isResetPending
            ? 'resets to inherited on save'
            : isChanged
              ? `changed; saved to ${ownSection(target, spec, profile)}`
              : overridden
                ? `set in ${describeConfigSource(field.source)}`
                : `inherited from ${describeConfigSource(field.source)}`}
        </span>
        {isChanged || isResetPending ? (
          <button
            type="button"
            className="link"
            onClick={() => store.getState().revertField(target, spec.key)}
          >
            undo
          </button>
        ) : (
          overridden && (
            <button
              type="button"
              className="link"
              data-testid={configResetId(target, spec.key)}
              onClick={() => store.getState().editField(target, spec.key, null)}
            >
              reset to inherited
            </button>
          )
        )}
      </div>
      {error && (
        <p
          className="field-error cfg-error"
          role="alert"
          data-testid={configErrorId(target, spec.key)}
        >
          {spec.label} {error}
        </p>
      )}
      <p className="cfg-help muted" id={`${id}-help`}>
        {spec.help}
      </p>
    </div>
  );
});
