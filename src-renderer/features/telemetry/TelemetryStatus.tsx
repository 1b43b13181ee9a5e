import { useEffect, useState } from 'react';
import type { TelemetryStatusView } from '@shared/domain/telemetry-status';
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';
import { formatCount } from '../../lib/format';

/** how often the counts are asked again while live export or a receiver is on */
export const TELEMETRY_POLL_MS = 2_000;

/**
 * OpenTelemetry in the top bar (docs/telemetry.md), shown only when live export or an
 * OTLP receiver is on: spans sent to `[telemetry] otlp_endpoint`, and the export's
 * failures (a receiver that is down costs the runs nothing, but it is seen here, with its
 * last reason); click for the endpoint, the dropped spans and the receiver's counts.
 */
export function TelemetryStatus({ pollMs = TELEMETRY_POLL_MS }: { pollMs?: number }) {
  const bridge = useBridge();
  const [view, setView] = useState<TelemetryStatusView | null>(null);
  const [isOpen, setOpen] = useState(false);
  const isOn = Boolean(view?.export || view?.receiver);
  useEffect(() => {
    let isLive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () =>
      bridge.telemetryStatus().then(
        (next) => {
          if (!isLive) return;
          setView(next);
          // the endpoint is read at start: nothing to watch when neither part is on
          if (next.export || next.receiver) timer = setTimeout(ask, pollMs);
        },
        () => undefined,
      );
    void ask();
    return () => {
      isLive = false;
      clearTimeout(timer);
    };
  }, [bridge, pollMs]);
  if (!view || !isOn) return null;
  const live = view.export;
  const failures = live?.failures ?? 0;
  const status = failures > 0 ? 'failing' : 'ok';
  const label = live
    ? failures > 0
      ? `OTLP export: ${formatCount(failures)} failed`
      : `OTLP export: ${formatCount(live.exported)} spans`
    : 'OTLP receiver on';
  return (
    <div className="sandbox">
      <button
        type="button"
        className={`pill telemetry-${status}`}
        data-testid={TEST_IDS.telemetryStatus}
        data-status={status}
        data-failures={failures}
        title={live?.lastError ? `Last failure: ${live.lastError}` : undefined}
        aria-expanded={isOpen}
        onClick={() => setOpen(!isOpen)}
      >
        <span className="dot" aria-hidden="true" /> {label}
      </button>
      {isOpen && (
        <div
          className="popover"
          data-testid={TEST_IDS.telemetryDetails}
          role="dialog"
          aria-label="OpenTelemetry"
        >
          {live && (
            <dl>
              <dt>Live export to</dt>
              <dd>{live.endpoint}</dd>
              <dt>Spans sent</dt>
              <dd>{formatCount(live.exported)}</dd>
              <dt>Failed requests</dt>
              <dd data-failures={live.failures}>{formatCount(live.failures)}</dd>
              <dt>Spans dropped</dt>
              <dd>{formatCount(live.dropped)}</dd>
              {live.lastError && (
                <>
                  <dt>Last failure</dt>
                  <dd>{live.lastError}</dd>
                </>
              )}
            </dl>
          )}
          {live && failures > 0 && (
            <p className="muted">
              The runs are not affected: their spans are dropped while the receiver does not answer.
              Check that it is running at this address, or change [telemetry] otlp_endpoint (read at
              start).
            </p>
          )}
          {view.receiver && (
            <dl>
              <dt>OTLP receiver</dt>
              <dd>{view.receiver.url}</dd>
              <dt>Token</dt>
              <dd>
                {view.receiver.needsToken
                  ? 'Authorization: Bearer TOKEN (this page’s token)'
                  : 'none (loopback only)'}
              </dd>
              <dt>Traces let go</dt>
              <dd>{formatCount(view.receiver.evictedTraces)}</dd>
              <dt>Bodies refused (too large)</dt>
              <dd>{formatCount(view.receiver.refusedBodies)}</dd>
            </dl>
          )}
        </div>
      )}
    </div>
  );
}
