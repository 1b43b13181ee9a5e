import { useState, type ReactNode } from 'react';
import { usePageDirty } from '../use-settings-guard';
import { AppApiError, type SectionField } from '@shared/ipc';
import { settingsFieldId, settingsResetId, TEST_IDS } from '../../../test-ids';
import { useBridge } from '../../../store/StoreProvider';
import { parseSectionValue, type SectionFieldSpec, type SectionRaw } from './section-fields';

type Section = 'sandbox' | 'browser' | 'telemetry';

/**
 * One settings section ([sandbox], [browser] or [telemetry]): each field with where its value comes
 * from (config.toml or the built-in default), a reset to the default, inline checks,
 * and Save, which keeps the file's comments (the main process validates again and names
 * the key of anything it refuses).
 */
export function SectionForm(props: {
  section: Section;
  specs: readonly SectionFieldSpec[];
  fields: Record<string, SectionField<unknown>>;
  /** extra content under a field (the image list under `image`) */
  below?: Partial<
    Record<string, (set: (raw: SectionRaw) => void, current: SectionRaw) => ReactNode>
  >;
}) {
  const { section, specs, fields } = props;
  const bridge = useBridge();
  const [draft, setDraft] = useState<Record<string, SectionRaw | null>>({});
  const [status, setStatus] = useState<{ ok: boolean; message: string } | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [isSaving, setSaving] = useState(false);
  const errors: Record<string, string> = {};
  for (const spec of specs) {
    const raw = draft[spec.key];
    if (raw === undefined || raw === null) continue;
    const parsed = parseSectionValue(spec, raw);
    if ('error' in parsed) errors[spec.key] = parsed.error;
  }
  const isDirty = Object.keys(draft).length > 0;
  usePageDirty(section, isDirty);

  const save = async () => {
    if (Object.keys(errors).length > 0) {
      setStatus({ ok: false, message: 'Fix the highlighted fields first' });
      return;
    }
    const edits: Record<string, string | number | boolean | null> = {};
    for (const spec of specs) {
      const raw = draft[spec.key];
      if (raw === undefined) continue;
      if (raw === null) edits[spec.key] = null;
      else {
        const parsed = parseSectionValue(spec, raw);
        if ('value' in parsed) edits[spec.key] = parsed.value;
      }
    }
    setSaving(true);
    try {
      await bridge.settings.saveSections({ [section]: edits });
      setDraft({});
      setServerErrors({});
      setStatus({ ok: true, message: 'Saved. The next run uses these settings.' });
    } catch (error) {
      const byKey: Record<string, string> = {};
      for (const issue of error instanceof AppApiError ? (error.issues ?? []) : []) {
        const key = issue.path.split('.')[1];
        if (key) byKey[key] = issue.message;
      }
      setServerErrors(byKey);
      setStatus({ ok: false, message: (error as Error).message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="config-page"
      aria-label={`[${section}] settings`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <fieldset>
        <legend>[{section}]</legend>
        {specs.map((spec) => {
          const field = fields[spec.key];
          if (!field) return null;
          const raw = draft[spec.key];
          const isReset = raw === null;
          const isChanged = raw !== undefined && raw !== null;
          const shown: SectionRaw = isChanged
            ? raw
            : spec.kind === 'bool'
              ? field.value === true
              : String(field.value ?? '');
          const id = settingsFieldId(section, spec.key);
          const error = errors[spec.key] ?? (isChanged ? undefined : serverErrors[spec.key]);
          const set = (value: SectionRaw) => {
            setDraft((d) => ({ ...d, [spec.key]: value }));
            setStatus(null);
          };
          return (
            <div
              key={spec.key}
              className={`cfg-row${field.source === 'file' ? ' is-overridden' : ''}${isChanged || isReset ? ' is-changed' : ''}${error ? ' has-error' : ''}`}
            >
              <label htmlFor={id} className="cfg-label">
                {spec.label}
                <span className="mono muted cfg-key">{spec.key}</span>
              </label>
              <div className="cfg-input">
                {spec.kind === 'bool' ? (
                  <input
                    id={id}
                    type="checkbox"
                    data-testid={id}
                    data-source={field.source}
                    disabled={isReset}
                    checked={shown === true}
                    onChange={(e) => set(e.target.checked)}
                  />
                ) : (
                  <input
                    id={id}
                    type="text"
                    spellCheck={false}
                    autoComplete="off"
                    data-testid={id}
                    data-source={field.source}
                    disabled={isReset}
                    aria-invalid={error ? true : undefined}
                    value={String(shown)}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
                <span className={`cfg-source ${field.source === 'file' ? 'is-own' : ''}`}>
                  {isReset
                    ? 'back to the default on save'
                    : isChanged
                      ? `changed; saved to [${section}]`
                      : field.source === 'file'
                        ? 'set in config.toml'
                        : 'built-in default'}
                </span>
                {isChanged || isReset ? (
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      setDraft((d) => {
                        const next = { ...d };
                        delete next[spec.key];
                        return next;
                      })
                    }
                  >
                    undo
                  </button>
                ) : (
                  field.source === 'file' && (
                    <button
                      type="button"
                      className="link"
                      data-testid={settingsResetId(section, spec.key)}
                      onClick={() => setDraft((d) => ({ ...d, [spec.key]: null }))}
                    >
                      reset to default
                    </button>
                  )
                )}
              </div>
              {error && (
                <p className="field-error cfg-error" role="alert">
                  {spec.label} {error}
                </p>
              )}
              <p className="cfg-help muted">{spec.help}</p>
              {props.below?.[spec.key]?.(set, shown)}
            </div>
          );
        })}
      </fieldset>
      <div className="config-actions">
        <button type="submit" data-testid={TEST_IDS.settingsSave} disabled={!isDirty || isSaving}>
          {isSaving ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!isDirty}
          onClick={() => {
            setDraft({});
            setStatus(null);
          }}
        >
          Discard changes
        </button>
        {status && (
          <span
            className={status.ok ? 'ok-text' : 'field-error'}
            role={status.ok ? 'status' : 'alert'}
            data-testid={TEST_IDS.settingsStatus}
          >
            {status.message}
          </span>
        )}
      </div>
    </form>
  );
}
