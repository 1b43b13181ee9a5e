import { useCallback, useEffect, useState } from 'react';
import type { AgentListItem } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { AgentEditor, type CatalogState } from './AgentEditor';
import { AgentList } from './AgentList';

/** The Agents page (`#/agents`, `#/agents/NAME`): the list, or one agent in the editor. */
export function AgentsPage() {
  const bridge = useBridge();
  const name = useWorkbench((s) => s.agentName);
  const [agents, setAgents] = useState<AgentListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [catalog, setCatalog] = useState<CatalogState>({ catalog: null, error: null });
  const reload = useCallback(() => {
    // marks for the Agents page benchmark's breakdown (request, answer); cheap to keep
    performance.mark('wb:agents:request');
    bridge.agents
      .listAgents({})
      .finally(() => performance.mark('wb:agents:response'))
      .then(setAgents, (e: Error) => setError(e.message));
  }, [bridge]);
  useEffect(() => {
    if (name === null) reload();
  }, [name, reload]);
  // the tools are listed once the editor is opened (MCP servers are asked then)
  useEffect(() => {
    if (name === null || catalog.catalog || catalog.error) return;
    bridge.agents.listAgentTools({}).then(
      (c) => setCatalog({ catalog: c, error: null }),
      (e: Error) => setCatalog({ catalog: null, error: e.message }),
    );
  }, [bridge, name, catalog]);
  return (
    <div className="agents-page" data-testid={TEST_IDS.agentsPage}>
      {error && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.agentError}>
          {error}
        </p>
      )}
      {name === null ? (
        <AgentList agents={agents} onChanged={reload} />
      ) : (
        <AgentEditor key={name} name={name} catalog={catalog} />
      )}
    </div>
  );
}
