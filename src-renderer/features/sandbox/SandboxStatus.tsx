import { useState } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';

/** The session's sandbox in the top bar; click for image, container, limits and state. */
export function SandboxStatus() {
  const bridge = useBridge();
  const sandbox = useWorkbench((s) => s.sandbox);
  const error = useWorkbench((s) => s.sandboxError);
  const [isOpen, setOpen] = useState(false);
  const status = !sandbox
    ? error
      ? 'unavailable'
      : 'unknown'
    : !sandbox.docker.isAvailable
      ? 'unavailable'
      : !sandbox.useSandbox
        ? 'off'
        : sandbox.status;
  const label =
    status === 'unavailable'
      ? 'Docker unavailable'
      : status === 'off'
        ? 'Sandbox off'
        : status === 'unknown'
          ? 'Sandbox …'
          : status === 'none'
            ? 'Sandbox not started'
            : `Sandbox ${status}`;
  return (
    <div className="sandbox">
      <button
        type="button"
        className={`pill sandbox-${status}`}
        data-testid={TEST_IDS.sandboxStatus}
        data-status={status}
        aria-expanded={isOpen}
        onClick={() => {
          setOpen(!isOpen);
          if (!isOpen) void bridge.refreshSandbox();
        }}
      >
        <span className="dot" aria-hidden="true" /> {label}
      </button>
      {isOpen && (
        <div
          className="popover"
          data-testid={TEST_IDS.sandboxDetails}
          role="dialog"
          aria-label="Sandbox"
        >
          {error && !sandbox && <p className="field-error">{error}</p>}
          {sandbox && (
            <dl>
              <dt>Docker</dt>
              <dd>
                {sandbox.docker.isAvailable
                  ? `available${sandbox.docker.version ? ` (${sandbox.docker.version})` : ''}`
                  : `unavailable: ${sandbox.docker.error ?? 'no engine answered'}`}
              </dd>
              <dt>Sandbox</dt>
              <dd>{sandbox.useSandbox ? sandbox.status : 'off (use_sandbox = false)'}</dd>
              <dt>Image</dt>
              <dd className="mono">{sandbox.image}</dd>
              <dt>Container</dt>
              <dd className="mono">
                {sandbox.containerId
                  ? sandbox.containerId.slice(0, 12)
                  : 'none yet (created on first use)'}
              </dd>
              <dt>Limits</dt>
              <dd>
                {sandbox.limits.memory} memory · {sandbox.limits.cpus} CPU · {sandbox.limits.pids}{' '}
                processes · {sandbox.limits.timeoutSeconds} s per command · network{' '}
                {sandbox.limits.isNetworkEnabled ? 'on' : 'off'}
              </dd>
              <dt>Session</dt>
              <dd className="mono">{sandbox.sessionId}</dd>
              {sandbox.error && (
                <>
                  <dt>Error</dt>
                  <dd className="field-error">{sandbox.error}</dd>
                </>
              )}
            </dl>
          )}
        </div>
      )}
    </div>
  );
}
