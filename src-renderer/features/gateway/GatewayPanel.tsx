import { useEffect, useState } from 'react';
import type { GatewayView } from '@shared/domain/gateway';
import { TEST_IDS } from '../../test-ids';
import { CopyButton } from '../../components/CopyButton';
import { useBridge, useWorkbench } from '../../store/StoreProvider';

const NO_PROFILES: string[] = [];

/**
 * The model gateway in the top bar (docs/gateway.md): turn it on, copy its URL and token
 * into an agent written with any framework, choose the profile it forwards to. Each
 * agent's calls then appear as a run in the history, live.
 */
export function GatewayPanel() {
  const bridge = useBridge();
  // the list itself (a new [] per render would re-render forever)
  const profiles = useWorkbench((s) => s.config?.profiles) ?? NO_PROFILES;
  const [view, setView] = useState<GatewayView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isOpen, setOpen] = useState(false);
  useEffect(() => {
    bridge.gateway.status().then(setView, (e: unknown) => setError(String((e as Error).message)));
  }, [bridge]);
  const change = async (input: { isOn: boolean; profile?: string }) => {
    setBusy(true);
    setError(null);
    try {
      setView(await bridge.gateway.set(input));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const isOn = view?.isOn ?? false;
  return (
    <div className="sandbox">
      <button
        type="button"
        className={`pill gateway-${isOn ? 'on' : 'off'}`}
        data-testid={TEST_IDS.gatewayStatus}
        data-status={isOn ? 'on' : 'off'}
        aria-expanded={isOpen}
        onClick={() => setOpen(!isOpen)}
      >
        <span className="dot" aria-hidden="true" /> {isOn ? 'Gateway on' : 'Gateway off'}
      </button>
      {isOpen && (
        <div
          className="popover"
          data-testid={TEST_IDS.gatewayPanel}
          role="dialog"
          aria-label="Gateway"
        >
          <p className="muted">
            An OpenAI-compatible endpoint for agents you wrote yourself: each agent&apos;s model
            calls become a run here, with the debugger.
          </p>
          <label>
            <input
              type="checkbox"
              data-testid={TEST_IDS.gatewayToggle}
              checked={isOn}
              disabled={isBusy}
              onChange={(e) => void change({ isOn: e.target.checked })}
            />{' '}
            Gateway on
          </label>
          <dl>
            <dt>Profile</dt>
            <dd>
              <select
                data-testid={TEST_IDS.gatewayProfile}
                value={view?.profile ?? 'default'}
                disabled={isBusy}
                onChange={(e) => void change({ isOn, profile: e.target.value })}
              >
                {['default', ...profiles].map((name) => (
                  <option key={name} value={name}>
                    {name === 'default' ? '[llm] (default)' : name}
                  </option>
                ))}
              </select>
              {view?.model && (
                <span className="muted">
                  {' '}
                  {view.isDemo ? 'the built-in demo model (no API key)' : view.model}
                </span>
              )}
            </dd>
            {isOn && view?.url && view.token && (
              <>
                <dt>Base URL</dt>
                <dd className="mono">
                  <span data-testid={TEST_IDS.gatewayUrl}>{view.url}</span>{' '}
                  <CopyButton text={() => view.url ?? ''} />
                </dd>
                <dt>API key</dt>
                <dd className="mono">
                  <span data-testid={TEST_IDS.gatewayToken}>{view.token}</span>{' '}
                  <CopyButton text={() => view.token ?? ''} />
                </dd>
                <dt>Run name</dt>
                <dd>
                  optional header <span className="mono">X-Workbench-Run: NAME</span>
                </dd>
              </>
            )}
          </dl>
          {error && <p className="field-error">{error}</p>}
        </div>
      )}
    </div>
  );
}
