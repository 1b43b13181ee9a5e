/**
 * "Fork from here" on the selected step of a finished run (docs/time-travel.md): a new
 * run starts from this step's context and sandbox files, with an optional added message
 * and another model profile, and opens live. Processes that were still running at this
 * step are not restored: the panel says so when the step's checkpoint saw any. A step
 * without a snapshot of its files cannot be forked with them: the panel says so, and the
 * user may fork it into an empty workspace instead (the main process refuses otherwise
 * when the run had files by then).
 */
import { useEffect, useState } from 'react';
import type { CheckpointView } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { runStatus } from '../../store/run-events';

export function ForkFromStep({
  runId,
  step,
  agent,
}: {
  runId: string;
  step: number;
  agent: string;
}) {
  const bridge = useBridge();
  const summary = useWorkbench((s) => s.runs[runId]?.summary);
  const profiles = useWorkbench((s) => s.config?.profiles);
  const [message, setMessage] = useState('');
  const [profile, setProfile] = useState('');
  const [isWithoutFiles, setWithoutFiles] = useState(false);
  const [checkpoints, setCheckpoints] = useState<CheckpointView[] | null>(null);
  const [state, setState] = useState<
    { status: 'idle' | 'forking' } | { status: 'failed'; error: string }
  >({
    status: 'idle',
  });
  const isLive = summary !== undefined && runStatus(summary) === 'running';
  useEffect(() => {
    if (isLive) return;
    let isCurrent = true;
    bridge
      .listCheckpoints(runId)
      .then((list) => isCurrent && setCheckpoints(list))
      .catch(() => isCurrent && setCheckpoints([]));
    return () => {
      isCurrent = false;
    };
  }, [bridge, runId, isLive]);
  if (!summary || isLive) return null;
  const checkpoint = checkpoints?.find((c) => c.step === step && c.agent === agent);
  const onFork = async () => {
    setState({ status: 'forking' });
    try {
      await bridge.forkRun({
        runId,
        step,
        ...(message.trim() ? { message: message.trim() } : {}),
        ...(profile ? { agentModel: profile } : {}),
        ...(checkpoints && !checkpoint && isWithoutFiles ? { withoutFiles: true } : {}),
      });
      setState({ status: 'idle' });
      setMessage('');
    } catch (error) {
      setState({ status: 'failed', error: (error as Error).message });
    }
  };
  return (
    <section className="fork-panel" data-testid={TEST_IDS.forkPanel} aria-label="Fork from here">
      <h3>Fork from step {step}</h3>
      <p className="muted">
        A new run starts with this step’s context and the sandbox files it had
        {checkpoint ? ` (${checkpoint.files} files)` : ''}, in a fresh container. This run stays as
        it is.
      </p>
      {checkpoints && !checkpoint && (
        <label className="warn-note">
          <input
            type="checkbox"
            data-testid={TEST_IDS.forkWithoutFiles}
            checked={isWithoutFiles}
            onChange={(e) => setWithoutFiles(e.target.checked)}
          />{' '}
          No snapshot of this step’s files was kept. Fork it into an empty workspace
        </label>
      )}
      {checkpoint && checkpoint.processes.length > 0 && (
        <p className="warn-note" role="status" data-testid={TEST_IDS.forkProcesses}>
          Processes were running at this step and are not restored in the fork:{' '}
          <span className="mono">{checkpoint.processes.join(', ')}</span>
        </p>
      )}
      <label>
        Add a message (optional)
        <textarea
          data-testid={TEST_IDS.forkMessage}
          rows={3}
          value={message}
          placeholder="e.g. Try another approach"
          onChange={(e) => setMessage(e.target.value)}
        />
      </label>
      <label>
        Model profile
        <select
          data-testid={TEST_IDS.forkModel}
          value={profile}
          onChange={(e) => setProfile(e.target.value)}
        >
          <option value="">the agent’s own</option>
          {(profiles ?? []).map((p) => (
            <option key={p} value={p}>
              [llm.{p}]
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        data-testid={TEST_IDS.forkSubmit}
        disabled={state.status === 'forking'}
        onClick={() => void onFork()}
      >
        {state.status === 'forking' ? 'Forking…' : 'Fork from here'}
      </button>
      {state.status === 'failed' && (
        <p className="field-error" role="alert">
          Could not fork: {state.error}
        </p>
      )}
    </section>
  );
}
