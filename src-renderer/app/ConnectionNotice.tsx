import { TEST_IDS } from '../test-ids';
import { useWorkbench } from '../store/StoreProvider';

/**
 * Browser mode, when the page lost its server: "reconnecting…" while it retries, and once
 * it stopped, why and what to do. A restarted `workbench serve` makes a new token, so the
 * old page can never get back in: it says so instead of retrying forever (issue 25 item 9).
 */
export function ConnectionBadge() {
  const isConnected = useWorkbench((s) => s.isConnected);
  const end = useWorkbench((s) => s.connectionEnd);
  if (isConnected) return null;
  return (
    <span
      className="badge badge-error"
      role="status"
      data-testid={TEST_IDS.connectionLost}
      data-end={end ?? 'retrying'}
    >
      {end === 'token-rejected'
        ? 'disconnected — server restarted'
        : end === 'gave-up'
          ? 'disconnected'
          : 'disconnected — reconnecting…'}
    </span>
  );
}

export function ConnectionEndBanner() {
  const end = useWorkbench((s) => s.connectionEnd);
  if (end === null) return null;
  return (
    <div
      className="error-banner connection-end"
      role="alert"
      data-testid={TEST_IDS.connectionEnded}
      data-end={end}
    >
      {end === 'token-rejected' ? (
        <p>
          <strong>The workbench server was restarted</strong> (or this link&apos;s token is wrong),
          so this page can no longer reach it. Open the new URL printed in the terminal where{' '}
          <code>workbench serve</code> runs (it ends with <code>?token=…</code>). To keep one URL
          across restarts, start it with <code>WORKBENCH_SERVE_TOKEN</code> set to a secret of 16
          characters or more.
        </p>
      ) : (
        <p>
          <strong>The workbench server does not answer</strong>, and this page stopped trying. Once{' '}
          <code>workbench serve</code> runs again, reload this page, or open the URL it printed if
          it made a new one.{' '}
          <button type="button" className="link" onClick={() => window.location.reload()}>
            Reload
          </button>
        </p>
      )}
    </div>
  );
}
