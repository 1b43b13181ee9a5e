/**
 * The editor's definition checked by the host as it is typed (debounced): its problems
 * field by field, and the prompts' token counts. A check answered for an older text is
 * dropped.
 */
import { useEffect, useState } from 'react';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import type { AgentCheckResult } from '@shared/ipc';
import type { AgentsCommands } from '../../store/agents-commands';

const CHECK_DELAY_MS = 250;

export function useAgentCheck(
  agents: AgentsCommands,
  draft: AgentDefinitionData | null,
): { result: AgentCheckResult | null; checked: AgentDefinitionData | null } {
  const [state, setState] = useState<{
    result: AgentCheckResult | null;
    checked: AgentDefinitionData | null;
  }>({ result: null, checked: null });
  useEffect(() => {
    if (!draft) return;
    let isLive = true;
    const timer = setTimeout(() => {
      agents.validateAgent({ definition: draft }).then(
        (result) => isLive && setState({ result, checked: draft }),
        () => undefined, // the save says what is wrong with the connection
      );
    }, CHECK_DELAY_MS);
    return () => {
      isLive = false;
      clearTimeout(timer);
    };
  }, [agents, draft]);
  return state;
}
