import type { SandboxFailureReason } from '@shared/events';
import { TEST_IDS } from '../../test-ids';
import { useWorkbench, useWorkbenchStore } from '../../store/StoreProvider';

interface Fix {
  text: string;
  /** the command that fixes it, when there is one */
  command?: string;
  isSettings?: boolean;
}

/** What fixes each kind of sandbox failure (the message itself says more). */
export function fixesFor(reason: SandboxFailureReason | undefined): Fix[] {
  switch (reason) {
    case 'engine_unavailable':
    case 'engine_timeout':
    case 'engine_disconnected':
      return [
        { text: 'Start Docker (Docker Desktop, or', command: 'sudo systemctl start docker' },
        {
          text: 'or install it and start it on Debian/Ubuntu with',
          command: 'sudo ./scripts/setup-system.sh',
        },
      ];
    case 'image_unavailable':
      return [
        { text: 'Build the local image with', command: 'sudo ./scripts/setup-system.sh' },
        { text: 'or choose an image this machine has in Settings → Sandbox.', isSettings: true },
      ];
    case 'sandbox_disabled':
      return [{ text: 'Turn the sandbox on in Settings → Sandbox.', isSettings: true }];
    default:
      return [{ text: 'Check the sandbox settings in Settings → Sandbox.', isSettings: true }];
  }
}

/**
 * A sandbox that cannot start is said once, here, with its cause and the action that
 * fixes it; the timeline has one row for it and the calls it failed point here.
 */
export function SandboxBanner({ runId }: { runId: string }) {
  const store = useWorkbenchStore();
  const failure = useWorkbench((s) => s.runs[runId]?.timeline.sandboxFailure);
  if (!failure || failure.isResolved) return null;
  const calls = failure.toolIds.length;
  return (
    <div
      className="error-note sandbox-banner"
      role="alert"
      data-testid={TEST_IDS.sandboxBanner}
      data-reason={failure.reason ?? 'unknown'}
      data-calls={calls}
    >
      <strong>
        The sandbox could not start
        {calls > 0 ? `; ${calls} tool call${calls === 1 ? '' : 's'} failed because of it` : ''}.
      </strong>{' '}
      <span className="banner-cause">{failure.error}</span>
      <ul className="banner-fixes">
        {fixesFor(failure.reason).map((fix) => (
          <li key={fix.text}>
            {fix.text} {fix.command && <code>{fix.command}</code>}
            {fix.command && fix.text.includes('(') ? ')' : ''}
            {fix.isSettings && (
              <>
                {' '}
                <button
                  type="button"
                  className="link"
                  onClick={() => store.getState().showSettingsSection('sandbox')}
                >
                  Open sandbox settings
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
