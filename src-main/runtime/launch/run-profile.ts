/**
 * A run that names its model profile (a batch's column: `workbench batch --profile A`)
 * uses `[llm.A]` instead of the agent's own profile, as if `[agent.NAME] llm = "A"` were
 * set for this run only. `default` is `[llm]` alone.
 */
import type { WorkbenchConfig } from '../config/schema';
import type { AgentName } from '@shared/domain/agent';

export function withRunProfile(
  config: WorkbenchConfig,
  agent: AgentName,
  profile: string | undefined,
): WorkbenchConfig {
  if (profile === undefined) return config;
  let profiles = config.llm.profiles;
  if (!profiles[profile]) {
    if (profile !== 'default') {
      const known = ['default', ...Object.keys(profiles)].join(', ');
      throw new Error(`There is no profile [llm.${profile}] in config.toml (profiles: ${known})`);
    }
    // An empty profile merged over [llm] is [llm] alone, named as the user named it.
    profiles = { ...profiles, default: {} };
  }
  return {
    ...config,
    llm: { ...config.llm, profiles },
    agent: { ...config.agent, [agent]: { ...config.agent[agent], llm: profile } },
  };
}
