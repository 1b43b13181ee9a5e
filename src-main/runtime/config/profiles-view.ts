/**
 * Settings' list of model profiles: `[llm]` (named `default`) and each `[llm.NAME]`,
 * with its effective values, how its key is held, which agents use it and how (by
 * name, `[agent.NAME] llm`, `[agent] llm`), and its price per million tokens (the
 * profile's `input_price`/`output_price`, else the list price of a known model, else
 * unknown).
 */
import {
  CONFIG_AGENT_NAMES,
  DEFAULT_PROFILE,
  type ProfilePrice,
  type ProfileUse,
  type ProfileView,
} from '@shared/ipc';
import { listPriceOf } from '@shared/pricing';
import { apiKeyStatus, llmFields, llmLayers, type KeyContext } from './llm-fields';
import { ALL_AGENTS, type WorkbenchConfig } from './schema';

/** How each agent reaches its profile: the name it resolves to and the key that says so. */
export function profileUses(config: WorkbenchConfig): Map<string, ProfileUse[]> {
  const uses = new Map<string, ProfileUse[]>();
  for (const agent of CONFIG_AGENT_NAMES) {
    const own = config.agent[agent]?.llm;
    const shared = config.agent[ALL_AGENTS]?.llm;
    const use: { name: string; via: ProfileUse['via'] } = own
      ? { name: own, via: 'agent' }
      : shared
        ? { name: shared, via: 'agents' }
        : config.llm.profiles[agent]
          ? { name: agent, via: 'name' }
          : { name: DEFAULT_PROFILE, via: 'default' };
    uses.set(use.name, [...(uses.get(use.name) ?? []), { agent, via: use.via }]);
  }
  return uses;
}

function priceOf(model: string, input: number, output: number): ProfilePrice | null {
  if (input > 0 || output > 0) return { input, output, source: 'profile' };
  const listed = listPriceOf(model);
  return listed ? { input: listed[0], output: listed[1], source: 'list' } : null;
}

export function buildProfileViews(config: WorkbenchConfig, context: KeyContext): ProfileView[] {
  const uses = profileUses(config);
  const names = [null, ...Object.keys(config.llm.profiles).sort()];
  return names.map((name) => {
    const layers = llmLayers(config, name);
    const llm = llmFields(layers);
    return {
      name: name ?? DEFAULT_PROFILE,
      llm,
      apiKey: apiKeyStatus(layers, context),
      usedBy: uses.get(name ?? DEFAULT_PROFILE) ?? [],
      price: priceOf(llm.model.value, llm.input_price.value, llm.output_price.value),
    };
  });
}
