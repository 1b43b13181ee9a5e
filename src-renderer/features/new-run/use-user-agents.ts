/** The user's agents New Run offers beside the built-in ones (those that load). */
import { useEffect, useState } from 'react';
import type { AgentListItem } from '@shared/ipc';
import type { AgentsCommands } from '../../store/agents-commands';

/** how the agent select names a user's agent (a built-in agent is its plain name) */
export const USER_AGENT_PREFIX = 'agent:';

export function useUserAgents(agents: AgentsCommands): AgentListItem[] {
  const [list, setList] = useState<AgentListItem[]>([]);
  useEffect(() => {
    let isLive = true;
    agents.listAgents({}).then(
      (all) => isLive && setList(all.filter((a) => a.source === 'home' && !a.error)),
      () => undefined, // New Run still offers the built-in agents
    );
    return () => {
      isLive = false;
    };
  }, [agents]);
  return list;
}
