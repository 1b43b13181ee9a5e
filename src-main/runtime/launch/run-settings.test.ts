import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema';
import { resolveAgentSettings, resolveLlmProfile } from '../config/resolve';
import {
  agentSettingsRecord,
  flowRunSettings,
  safeBaseUrl,
  sessionSettingsRecord,
} from './run-settings';

const KEY = 'sk-run-settings-0123456789';

describe('the settings recorded on run.started', () => {
  const config = configSchema.parse({
    llm: {
      model: 'gpt-4o',
      api_key: KEY,
      base_url: 'https://user:pa55word@llm.example.com/v1?api-key=abc',
      fast: { model: 'gpt-4o-mini', temperature: 0.2, input_price: 0.1, output_price: 0.4 },
    },
    agent: { swe: { llm: 'fast', max_steps: 7 } },
    mcp: {
      servers: { tools: { type: 'stdio', command: 'srv', env: { TOKEN: 'secret-token-1' } } },
    },
  });

  it('resolves the agent’s profile and settings, flat, without the API key', () => {
    const record = {
      ...agentSettingsRecord(
        resolveLlmProfile(config, 'swe', {}),
        resolveAgentSettings(config, 'swe'),
      ),
      ...sessionSettingsRecord(config),
    };
    expect(record).toMatchObject({
      'llm.profile': 'fast',
      'llm.model': 'gpt-4o-mini',
      'llm.temperature': 0.2,
      // the profile's own prices, so a comparison prices the run as it was configured
      'llm.input_price': 0.1,
      'llm.output_price': 0.4,
      'llm.client': 'api',
      'llm.has_api_key': true,
      'llm.base_url': 'https://llm.example.com/v1',
      'agent.max_steps': 7,
      'sandbox.image': 'python:3.12-slim',
      'mcp.servers': 'tools',
    });
    const text = JSON.stringify(record);
    for (const secret of [KEY, 'pa55word', 'api-key=abc', 'secret-token-1']) {
      expect(text).not.toContain(secret);
    }
  });

  it('prefixes a flow participant’s keys and says when the demo model stands in', () => {
    const noKey = configSchema.parse({});
    const record = agentSettingsRecord(
      resolveLlmProfile(noKey, 'planning', {}),
      resolveAgentSettings(noKey, 'planning'),
      'planning',
    );
    expect(record).toMatchObject({
      'planning.llm.client': 'demo',
      'planning.llm.has_api_key': false,
    });
    expect(Object.keys(record).every((k) => k.startsWith('planning.'))).toBe(true);
  });

  it('records a flow’s planner, each executor and the flow settings', () => {
    const record = flowRunSettings(config, (target) => resolveLlmProfile(config, target, {}), {
      maxSteps: 33,
      executors: ['manus', 'swe'],
    });
    expect(record).toMatchObject({
      'planning.agent.max_steps': 33,
      'manus.llm.model': 'gpt-4o',
      'swe.llm.model': 'gpt-4o-mini',
      'swe.agent.max_steps': 7,
      'flow.executors': 'manus, swe',
      'sandbox.use_sandbox': true,
    });
    expect(JSON.stringify(record)).not.toContain(KEY);
  });

  it('keeps no credentials of a base URL', () => {
    expect(safeBaseUrl('http://a:b@h:8080/v1/')).toBe('http://h:8080/v1');
    expect(safeBaseUrl('nonsense')).toBe('(not a URL)');
  });
});
