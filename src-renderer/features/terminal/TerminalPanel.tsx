/**
 * The Terminal panel of the run view (issue 32 item 4): commands typed here run in the
 * run's session sandbox (`sandbox:exec`), never on this computer, and are kept as user
 * actions in the run's user-actions log (docs/events.md), not as agent steps. It is
 * read-only while the agent runs (what was typed stays visible) and takes commands when
 * the run is paused or finished.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { UserCommandRecord } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { useUserActions } from '../../store/user-actions';

const NO_COMMANDS: readonly UserCommandRecord[] = [];

export const RUNNING_REASON =
  'Read-only while the agent runs: pause the run, or wait until it finishes, to type commands.';

export function TerminalPanel({ runId }: { runId: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <section className="terminal-panel-wrap" aria-label="Terminal">
      <button
        type="button"
        className="link"
        data-testid={TEST_IDS.terminalToggle}
        aria-expanded={isOpen}
        onClick={() => setOpen(!isOpen)}
      >
        {isOpen ? '▾ Terminal' : '▸ Terminal'}
      </button>
      {isOpen && <OpenTerminal key={runId} runId={runId} />}
    </section>
  );
}

function OpenTerminal({ runId }: { runId: string }) {
  const bridge = useBridge();
  const isPaused = useWorkbench((s) => Boolean(s.runs[runId]?.timeline.debug?.paused));
  const isFinished = useWorkbench((s) => s.runs[runId]?.summary?.outcome !== undefined);
  const isEnabled = isPaused || isFinished;
  // shared with the timeline, which shows them as user actions (store/user-actions.ts)
  const commands = useUserActions((s) => s.byRun[runId] ?? NO_COMMANDS);
  const loadError = useUserActions((s) => s.errors[runId]);
  const load = useUserActions((s) => s.load);
  const add = useUserActions((s) => s.add);
  const [command, setCommand] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    load(runId, () => bridge.terminal.listSandboxCommands({ runId }));
  }, [bridge, load, runId]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isEnabled || isBusy || !command.trim()) return;
    setBusy(true);
    setError(null);
    bridge.terminal.runSandboxCommand({ runId, command }).then(
      (record) => {
        add(record);
        setCommand('');
        setBusy(false);
      },
      (failure: unknown) => {
        setError(messageOf(failure));
        setBusy(false);
      },
    );
  };

  return (
    <div
      className="terminal-panel"
      data-testid={TEST_IDS.terminalPanel}
      data-enabled={String(isEnabled)}
    >
      <p className="muted">
        Commands run in this run&apos;s sandbox container (never on this computer) and are kept as
        your actions, not the agent&apos;s steps.
      </p>
      <ol className="terminal-output" aria-label="Commands typed">
        {commands.map((record) => (
          <li
            key={record.seq}
            data-testid={TEST_IDS.terminalEntry}
            data-seq={record.seq}
            data-exit-code={record.exitCode ?? ''}
          >
            <div className="terminal-command">$ {record.command}</div>
            {record.output && <pre>{record.output}</pre>}
            <div className="muted">
              {`exit ${record.exitCode ?? '—'}${record.timedOut ? ' (timed out)' : ''} · ${record.durationMs} ms · while ${record.runState}`}
            </div>
          </li>
        ))}
      </ol>
      {!isEnabled && (
        <p className="muted" data-testid={TEST_IDS.terminalReason}>
          {RUNNING_REASON}
        </p>
      )}
      {(error ?? loadError) && (
        <p className="error-note" role="alert" data-testid={TEST_IDS.terminalError}>
          {error ?? loadError}
        </p>
      )}
      <form className="terminal-input" onSubmit={submit}>
        <span aria-hidden="true">$</span>
        <input
          type="text"
          aria-label="Command"
          data-testid={TEST_IDS.terminalInput}
          value={command}
          disabled={!isEnabled || isBusy}
          title={isEnabled ? undefined : RUNNING_REASON}
          placeholder={isEnabled ? 'ls -la' : 'read-only while the agent runs'}
          onChange={(e) => setCommand(e.target.value)}
        />
        <button
          type="submit"
          data-testid={TEST_IDS.terminalRun}
          disabled={!isEnabled || isBusy || !command.trim()}
        >
          {isBusy ? 'Running…' : 'Run'}
        </button>
      </form>
    </div>
  );
}

function messageOf(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}
