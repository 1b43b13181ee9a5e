/**
 * The figures of a run that a comparison puts side by side: steps, tokens, estimated
 * cost, wall time, tool errors, stuck detections, outcome and the recorded settings.
 * A pure fold over the events, kept small so it can later merge with the run header's
 * health line.
 */
import type { TokenUsage } from '../domain/agent';
import type { RunEvent, RunSettings } from '../events';
import { estimateCostUsd } from '../pricing';
import { isToolFailure } from '../run-outcome';
import { forkOfEvent } from './fork';
import type { RunFacts } from './types';

export function runFacts(
  events: readonly RunEvent[],
  options: { isLive?: boolean } = {},
): RunFacts {
  const first = events[0];
  const facts: RunFacts = {
    runId: first?.runId ?? '',
    agent: '',
    task: '',
    model: '',
    startedAt: first?.ts ?? 0,
    steps: 0,
    maxSteps: 0,
    tokens: { prompt: 0, completion: 0 },
    costUsd: 0,
    wallMs: 0,
    toolCalls: 0,
    toolErrors: 0,
    stuckDetections: 0,
    outcome: options.isLive ? 'running' : 'interrupted',
    settings: null,
  };
  let settings: RunSettings | null = null;
  let prompt = 0;
  let completion = 0;
  let finalUsage: TokenUsage | undefined;
  const byModel = new Map<string, TokenUsage>();
  let endTs = first?.ts ?? 0;
  for (const event of events) {
    endTs = event.ts;
    switch (event.type) {
      case 'run.started': {
        facts.agent = event.agent;
        facts.task = event.task;
        facts.model = event.model;
        facts.maxSteps = event.maxSteps;
        facts.startedAt = event.ts;
        if (event.flow) facts.flow = event.flow;
        if (event.settings) settings = event.settings;
        if (event.agentDefinition) facts.agentDefinition = event.agentDefinition;
        const forkOf = forkOfEvent(event);
        if (forkOf) facts.forkOf = forkOf;
        break;
      }
      case 'step.started':
        facts.steps = Math.max(facts.steps, event.step);
        break;
      case 'llm.responded': {
        prompt += event.usage.prompt;
        completion += event.usage.completion;
        // priced per model at the end (a run uses one or a few models)
        const used = byModel.get(event.model);
        if (used) {
          used.prompt += event.usage.prompt;
          used.completion += event.usage.completion;
        } else {
          byModel.set(event.model, { ...event.usage });
        }
        break;
      }
      case 'tool.finished':
        facts.toolCalls += 1;
        if (isToolFailure(event)) facts.toolErrors += 1;
        break;
      case 'stuck.detected':
        facts.stuckDetections += 1;
        break;
      case 'run.finished':
        facts.outcome = event.outcome;
        facts.steps = event.steps;
        finalUsage = event.usage;
        break;
    }
  }
  facts.tokens = finalUsage ?? { prompt, completion };
  const own = recordedPrices(settings);
  for (const [model, usage] of byModel) {
    const cost = estimateCostUsd(model, usage, own.get(model));
    facts.costUsd = cost === null || facts.costUsd === null ? null : facts.costUsd + cost;
  }
  facts.wallMs = Math.max(0, endTs - facts.startedAt);
  facts.settings = settings;
  return facts;
}

/**
 * The prices the run's profiles set (`llm.input_price`/`llm.output_price` beside
 * `llm.model`, for every agent of a flow under its prefix), by model.
 */
function recordedPrices(settings: RunSettings | null): Map<string, readonly [number, number]> {
  const prices = new Map<string, readonly [number, number]>();
  for (const [key, model] of Object.entries(settings ?? {})) {
    if (!key.endsWith('llm.model') || typeof model !== 'string') continue;
    const prefix = key.slice(0, -'model'.length);
    const input = settings?.[`${prefix}input_price`];
    const output = settings?.[`${prefix}output_price`];
    if (typeof input === 'number' || typeof output === 'number') {
      prices.set(model, [
        typeof input === 'number' ? input : 0,
        typeof output === 'number' ? output : 0,
      ]);
    }
  }
  return prices;
}
