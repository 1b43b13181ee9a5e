import type { PreflightCheck } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useWorkbenchStore } from '../../store/StoreProvider';
import type { PreflightState } from './use-preflight';

const MARK: Record<PreflightCheck['status'], string> = {
  ok: '✓',
  info: 'ℹ',
  warn: '⚠',
  error: '✗',
};
const SETTINGS_OF: Partial<Record<PreflightCheck['id'], 'sandbox' | 'browser' | 'mcp'>> = {
  docker: 'sandbox',
  image: 'sandbox',
  mcp: 'mcp',
  browser: 'browser',
};

/**
 * What the run will meet, before it starts: warnings to read, errors that keep Start
 * off until they are fixed (each with its fix and a way to the setting that fixes it).
 */
export function PreflightPanel({ state }: { state: PreflightState }) {
  const store = useWorkbenchStore();
  const report = state.status === 'failed' ? undefined : state.report;
  const checks = report?.checks ?? [];
  const worst = checks.some((c) => c.status === 'error')
    ? 'error'
    : checks.some((c) => c.status === 'warn')
      ? 'warn'
      : 'ok';
  return (
    <section
      className={`preflight preflight-${worst}`}
      data-testid={TEST_IDS.preflight}
      data-state={state.status === 'checking' && !report ? 'checking' : worst}
      aria-label="Before the run"
      aria-live="polite"
    >
      {state.status === 'failed' && (
        <p className="field-error">Could not check the run&apos;s needs: {state.error}</p>
      )}
      {state.status === 'checking' && !report && (
        <p className="muted">Checking Docker, the image and the model…</p>
      )}
      <ul>
        {checks.map((check, i) => {
          const section = SETTINGS_OF[check.id];
          return (
            <li
              key={`${check.id}-${i}`}
              className={`preflight-check status-${check.status}`}
              data-testid={TEST_IDS.preflightCheck}
              data-check={check.id}
              data-status={check.status}
            >
              <span className="preflight-mark" aria-hidden="true">
                {MARK[check.status]}
              </span>{' '}
              {check.message}
              {check.fix && check.status !== 'ok' && (
                <span className="preflight-fix">
                  {' '}
                  — {check.fix}
                  {section && (
                    <>
                      {' '}
                      <button
                        type="button"
                        className="link"
                        onClick={() => store.getState().showSettingsSection(section)}
                      >
                        Open {section === 'mcp' ? 'MCP' : section} settings
                      </button>
                    </>
                  )}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
