import { CONFIG_AGENT_NAMES, profileOfTarget, type ConfigTarget } from '@shared/ipc';
import { configTabId, settingsTabId, TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';
import { isDraftEmpty } from '../../store/config/config-draft';
import { ConfigPage } from './ConfigPage';
import { ImportOpenManus } from './ImportOpenManus';
import { UnsavedDialog } from './UnsavedDialog';
import { ProfilesPage } from './profiles/ProfilesPage';
import { SectionsPage } from './sections/SectionsPage';
import { SETTINGS_SECTIONS, type SettingsSection } from '../../store/ui-slice';

const TARGETS: ConfigTarget[] = ['default', ...CONFIG_AGENT_NAMES];
const SECTION_LABELS: Record<SettingsSection, string> = {
  sandbox: 'Sandbox',
  browser: 'Browser',
  telemetry: 'Telemetry',
  mcp: 'MCP servers',
};

/** Settings: a page per agent, the [llm] defaults, and the OpenManus import. */
export function ConfigEditor() {
  const store = useWorkbenchStore();
  const config = useWorkbench((s) => s.config);
  const configError = useWorkbench((s) => s.configError);
  const target = useWorkbench((s) => s.configTarget);
  const drafts = useWorkbench((s) => s.drafts);
  const section = useWorkbench((s) => s.settingsSection);
  const isProfiles =
    section === 'profiles' || (section === null && profileOfTarget(target) !== null);

  return (
    <section className="config-editor" data-testid={TEST_IDS.configEditor} aria-label="Settings">
      <header className="config-header">
        <h2>Settings</h2>
        {config && (
          <p className="muted">
            {config.exists ? 'Saved to' : 'Will be created at'}{' '}
            <span className="mono">{config.file}</span>. Saved changes apply to the next run.
          </p>
        )}
      </header>
      {configError && (
        <div className="error-note" role="alert">
          Could not read the settings: {configError}
        </div>
      )}
      {config?.error && (
        <div className="error-note" role="alert">
          <strong>
            config.toml has errors; the values below are defaults and saving is off until it is
            fixed.
          </strong>{' '}
          {config.error.message}
          <ul>
            {config.error.issues.map((issue) => (
              <li key={`${issue.path}:${issue.line ?? ''}`}>
                <span className="mono">{issue.path}</span>
                {issue.line ? ` (line ${issue.line})` : ''}: {issue.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {config?.warnings && config.warnings.length > 0 && (
        // Said by the host when it reads the files (an API key in a config.toml others
        // can read, a damaged secrets.json): the CLI prints them, the desktop shows them here.
        <div className="warn-note" role="status" data-testid={TEST_IDS.configWarnings}>
          <ul>
            {config.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <UnsavedDialog />
      <div className="config-tabs" role="tablist" aria-label="Agents">
        {TARGETS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={section === null && t === target}
            data-testid={configTabId(t)}
            className={`tab${section === null && t === target ? ' is-active' : ''}`}
            onClick={() => store.getState().showConfig(t)}
          >
            {t === 'default' ? 'Defaults [llm]' : t}
            {!isDraftEmpty(drafts[t]) && <span className="dirty-dot" title="Unsaved changes" />}
          </button>
        ))}
        <span className="tab-separator" aria-hidden="true" />
        <button
          type="button"
          role="tab"
          aria-selected={isProfiles}
          data-testid={settingsTabId('profiles')}
          className={`tab${isProfiles ? ' is-active' : ''}`}
          onClick={() => store.getState().showSettingsSection('profiles')}
        >
          Profiles
          {Object.keys(drafts).some(
            (t) => profileOfTarget(t) !== null && !isDraftEmpty(drafts[t as ConfigTarget]),
          ) && <span className="dirty-dot" title="Unsaved changes" />}
        </button>
        {SETTINGS_SECTIONS.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={section === s}
            data-testid={settingsTabId(s)}
            className={`tab${section === s ? ' is-active' : ''}`}
            onClick={() => store.getState().showSettingsSection(s)}
          >
            {SECTION_LABELS[s]}
          </button>
        ))}
      </div>
      {config && section === 'profiles' ? (
        <ProfilesPage config={config} />
      ) : config && section && section !== 'profiles' ? (
        <SectionsPage key={section} config={config} section={section} />
      ) : config ? (
        <ConfigPage key={target} config={config} target={target} />
      ) : (
        !configError && <p className="muted">Loading the settings…</p>
      )}
      <ImportOpenManus />
    </section>
  );
}
