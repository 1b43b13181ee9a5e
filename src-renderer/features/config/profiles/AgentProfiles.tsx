import { useState } from 'react';
import { CONFIG_AGENT_NAMES, type ConfigAgentName, type ConfigView } from '@shared/ipc';
import { profileTestId } from '../../../test-ids';
import { useBridge } from '../../../store/StoreProvider';

/** What "no choice" means for this agent: its own `[llm.AGENT]` when there is one, else `[llm]`. */
function ownChoice(config: ConfigView, agent: ConfigAgentName): string {
  return config.profiles.includes(agent) ? `its own [llm.${agent}]` : '[llm] (default)';
}

/**
 * Which profile each agent uses, chosen from the list: writes `[agent.AGENT] llm` (or
 * removes it), so no one edits TOML by hand for it.
 */
export function AgentProfiles({ config }: { config: ConfigView }) {
  const bridge = useBridge();
  const [error, setError] = useState<string | null>(null);
  const assign = async (agent: ConfigAgentName, value: string) => {
    setError(null);
    try {
      await bridge.settings.editProfile({
        action: 'assign',
        agent,
        profile: value === '' ? null : value,
      });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <fieldset className="agent-profiles">
      <legend>Which profile each agent uses</legend>
      {CONFIG_AGENT_NAMES.map((agent) => {
        const chosen = config.agents[agent].profile;
        // An agent on its own [llm.AGENT] by name shows "its own" (no key to write).
        const value = chosen === null || chosen === agent ? '' : chosen;
        return (
          <label key={agent} className="agent-profile-row">
            <span className="mono">{agent}</span>
            <select
              data-testid={profileTestId('assign', agent)}
              value={value}
              onChange={(e) => void assign(agent, e.target.value)}
            >
              <option value="">{ownChoice(config, agent)}</option>
              {config.profiles
                .filter((name) => name !== agent)
                .map((name) => (
                  <option key={name} value={name}>
                    [llm.{name}]
                  </option>
                ))}
            </select>
          </label>
        );
      })}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
