/**
 * The Agents page's requests for renderer unit tests (memory-api.ts): agents held in a
 * map, a built-in `manus` (read-only), versions counted per save. What a definition's
 * problems are is the host's to say (agents-contract.test.ts); here a test gives them
 * with `override('validateAgent', …)`. Everything else answers as the host would.
 */
import { AppApiError, type AgentDetail, type AgentListItem, type AppApi } from '@shared/ipc';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import type { AGENTS_API_METHODS } from '@shared/agents-contract';

type AgentsApi = Pick<AppApi, keyof typeof AGENTS_API_METHODS>;

export const MEMORY_MANUS: AgentDefinitionData = {
  name: 'manus',
  description: 'A versatile agent',
  system_prompt: 'You are Manus. The workspace is {{work_dir}}.',
  next_step_prompt: 'Decide the next step.',
  tools: ['python_execute', 'bash', 'terminate'],
  terminate_tools: ['terminate'],
  run: {},
};

export function memoryAgents(): AgentsApi {
  const user = new Map<string, { versions: AgentDefinitionData[] }>();
  const detail = (name: string): AgentDetail => {
    if (name === 'manus') {
      return {
        name,
        source: 'builtin',
        isReadOnly: true,
        text: `name = "manus"\n`,
        definition: MEMORY_MANUS,
        issues: [],
        version: 1,
        versions: [{ version: 1, hash: 'b0' }],
      };
    }
    const agent = user.get(name);
    if (!agent)
      throw new AppApiError({ code: 'not_found', message: `There is no agent "${name}"` });
    return {
      name,
      source: 'home',
      isReadOnly: false,
      text: `name = "${name}"\n`,
      definition: agent.versions.at(-1)!,
      issues: [],
      version: agent.versions.length,
      versions: agent.versions.map((_, i) => ({ version: i + 1, hash: `h${i + 1}` })),
    };
  };
  const tokens = (d: AgentDefinitionData) => ({
    system_prompt: Math.ceil(d.system_prompt.length / 4),
    next_step_prompt: Math.ceil(d.next_step_prompt.length / 4),
  });
  const item = (name: string): AgentListItem => {
    const d = detail(name);
    return {
      name,
      source: d.source,
      description: d.definition!.description,
      version: d.version!,
      carrier: 'manus',
    };
  };
  return {
    listAgents: async () => ['manus', ...[...user.keys()].sort()].map(item),
    getAgent: async ({ name }) => detail(name),
    listAgentTools: async () => ({
      builtin: ['python_execute', 'bash', 'terminate'].map((name) => ({
        pattern: name,
        name,
        description: `The ${name} tool.\nMore about it.`,
        parameters: { type: 'object', properties: { arg: { type: 'string' } } },
      })),
      servers: [{ server: 'gone', tools: [], error: 'Could not connect to "gone"' }],
    }),
    validateAgent: async ({ definition }) => ({ issues: [], tokens: tokens(definition) }),
    saveAgent: async ({ name, definition }) => {
      const agent = user.get(name);
      if (!agent) throw new AppApiError({ code: 'forbidden', message: `${name} is read-only` });
      agent.versions.push(definition);
      return { issues: [], tokens: tokens(definition), saved: detail(name) };
    },
    createAgent: async ({ name, from }) => {
      if (user.has(name) || name === 'manus')
        throw new AppApiError({ code: 'conflict', message: `An agent "${name}" exists already` });
      const base = from !== undefined ? detail(from).definition! : MEMORY_MANUS;
      user.set(name, { versions: [{ ...base, name }] });
      return detail(name);
    },
    renameAgent: async ({ name, to }) => {
      const agent = user.get(name);
      if (!agent) throw new AppApiError({ code: 'not_found', message: `no ${name}` });
      user.delete(name);
      user.set(to, { versions: [...agent.versions, { ...agent.versions.at(-1)!, name: to }] });
      return detail(to);
    },
    deleteAgent: async ({ name }) => {
      if (!user.delete(name)) throw new AppApiError({ code: 'not_found', message: `no ${name}` });
      return { deleted: true };
    },
    importAgent: async ({ name }) => {
      const agentName = name ?? 'imported';
      user.set(agentName, { versions: [{ ...MEMORY_MANUS, name: agentName }] });
      return { issues: [], tokens: tokens(MEMORY_MANUS), saved: detail(agentName) };
    },
    exportAgent: async ({ ref }) => ({ fileName: `${ref}.toml`, content: detail(ref).text }),
  };
}
