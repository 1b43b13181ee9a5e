import { useRef, useState } from 'react';
import type { AgentFieldIssue, AgentListItem } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';
import { downloadText } from '../../lib/download';
import { formatClock } from './format-when';
import { NameForm } from './NameForm';

type Asking =
  | { action: 'new' }
  | { action: 'duplicate' | 'rename'; name: string }
  | { action: 'import'; content: string; fileName: string };

/**
 * The agents: built-in ones (read-only) and the user's, with their version and last run;
 * New, Import, and per agent Open, Run, Duplicate, Rename, Export, Delete.
 */
export function AgentList({
  agents,
  onChanged,
}: {
  agents: readonly AgentListItem[] | null;
  onChanged(): void;
}) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [importIssues, setImportIssues] = useState<AgentFieldIssue[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const submit = async (name: string) => {
    if (!asking) return;
    if (asking.action === 'new') {
      await bridge.agents.createAgent({ name });
      store.getState().showAgents(name);
    } else if (asking.action === 'duplicate') {
      await bridge.agents.createAgent({ name, from: asking.name });
      store.getState().showAgents(name);
    } else if (asking.action === 'rename') {
      await bridge.agents.renameAgent({ name: asking.name, to: name });
    } else if (asking.action === 'import') {
      const result = await bridge.agents.importAgent({
        content: asking.content,
        fileName: asking.fileName,
        name,
      });
      setImportIssues(result.issues);
      if (!result.saved) return;
    }
    setAsking(null);
    onChanged();
  };
  return (
    <div className="agent-list-page">
      <div className="agent-list-header">
        <h2>Agents</h2>
        <span className="spacer" />
        <button
          type="button"
          data-testid={TEST_IDS.agentNew}
          onClick={() => setAsking({ action: 'new' })}
        >
          New agent
        </button>
        <button
          type="button"
          data-testid={TEST_IDS.agentImport}
          onClick={() => fileInput.current?.click()}
        >
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".toml,text/plain"
          hidden
          data-testid={TEST_IDS.agentImportFile}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            void file.text().then((content) => {
              setImportIssues([]);
              const named = /^\s*name\s*=\s*["']([^"']*)["']/m.exec(content)?.[1];
              setAsking({ action: 'import', content, fileName: file.name });
              if (named === undefined)
                setError(`${file.name} has no name = "…": give the agent one`);
            });
          }}
        />
      </div>
      {asking && (
        <NameForm
          key={asking.action}
          action={
            { new: 'Create', duplicate: 'Duplicate', rename: 'Rename', import: 'Import' }[
              asking.action
            ]
          }
          initial={
            asking.action === 'new'
              ? ''
              : asking.action === 'import'
                ? (/^\s*name\s*=\s*["']([^"']*)["']/m.exec(asking.content)?.[1] ?? '')
                : asking.action === 'duplicate'
                  ? `${asking.name}-copy`
                  : asking.name
          }
          onCancel={() => setAsking(null)}
          onSubmit={submit}
        />
      )}
      {importIssues.map((i) => (
        <p key={`${i.path}${i.message}`} className="field-error" role="alert">
          {i.path}
          {i.line !== undefined ? ` (line ${i.line})` : ''}: {i.message}
        </p>
      ))}
      {error && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.agentError}>
          {error}
        </p>
      )}
      {!agents ? (
        <p className="muted">Loading the agents…</p>
      ) : (
        <table className="agent-list" data-testid={TEST_IDS.agentList} data-count={agents.length}>
          <thead>
            <tr>
              <th>Agent</th>
              <th>Version</th>
              <th>Last run</th>
              <th>What it is for</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {agents.map((a) => (
              <tr
                key={a.name}
                data-testid={TEST_IDS.agentRow}
                data-agent={a.name}
                data-source={a.source}
              >
                <td>
                  <button
                    type="button"
                    className="link"
                    onClick={() => store.getState().showAgents(a.name)}
                  >
                    {a.name}
                  </button>
                  {a.source === 'builtin' && <span className="muted"> built-in</span>}
                </td>
                <td>{a.version !== undefined ? `v${a.version}` : '—'}</td>
                <td>
                  {a.lastRun ? (
                    <button
                      type="button"
                      className="link"
                      onClick={() => store.getState().selectRun(a.lastRun!.runId)}
                    >
                      {formatClock(a.lastRun.startedAt)}
                      {a.lastRun.outcome ? ` · ${a.lastRun.outcome}` : ''}
                    </button>
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
                <td>{a.error ? <span className="field-error">{a.error}</span> : a.description}</td>
                <td className="agent-actions">
                  <button
                    type="button"
                    className="link"
                    disabled={!!a.error}
                    onClick={() => store.getState().runWithAgent(a.name)}
                  >
                    run
                  </button>
                  <button
                    type="button"
                    className="link"
                    onClick={() => setAsking({ action: 'duplicate', name: a.name })}
                  >
                    duplicate
                  </button>
                  {a.source === 'home' && (
                    <>
                      <button
                        type="button"
                        className="link"
                        onClick={() => setAsking({ action: 'rename', name: a.name })}
                      >
                        rename
                      </button>
                      <button
                        type="button"
                        className="link"
                        data-testid={TEST_IDS.agentDelete}
                        onClick={() => {
                          if (
                            globalThis.confirm(
                              `Delete the agent ${a.name}? Its saved versions stay for the runs that used them.`,
                            )
                          )
                            void act(() => bridge.agents.deleteAgent({ name: a.name }));
                        }}
                      >
                        delete
                      </button>
                    </>
                  )}
                  {!a.error && (
                    <button
                      type="button"
                      className="link"
                      onClick={() =>
                        void act(() =>
                          bridge.agents
                            .exportAgent({ ref: a.name })
                            .then((f) => downloadText(f.fileName, f.content, 'application/toml')),
                        )
                      }
                    >
                      export
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
