/**
 * The playground's starting point (issue 28 item 4): one model call of a recorded run as
 * the exact request body the client sent (rebuilt from the run's events by the same code
 * as the inspector's raw view, src-shared/model-request.ts), the reply the run got, the
 * profile it used and the agent definition it ran with. Reads the history only.
 */
import type { RunEvent, RunEventOf } from '@shared/events';
import { requestsOfRun } from '@shared/model-request';
import type {
  PlaygroundProfile,
  PlaygroundReply,
  PlaygroundRequestView,
} from '@shared/domain/playground';
import type { WorkbenchConfig } from '../config/schema';

export class PlaygroundRequestError extends Error {
  constructor(
    message: string,
    readonly code: 'not_found' | 'invalid_input',
  ) {
    super(message);
    this.name = 'PlaygroundRequestError';
  }
}

export function playgroundRequest(
  runId: string,
  seq: number,
  events: readonly RunEvent[],
  config: WorkbenchConfig,
  /** each profile's model as it resolves today (`default` first) */
  profiles: PlaygroundProfile[],
): PlaygroundRequestView {
  const found = requestsOfRun(events).find((r) => r.event.seq === seq);
  if (!found) {
    const calls = events.filter((e) => e.type === 'llm.requested').map((e) => e.seq);
    throw new PlaygroundRequestError(
      `Run ${runId} has no model call at event ${seq} (its model calls are events ${calls.slice(0, 20).join(', ') || 'none'}${calls.length > 20 ? ', …' : ''})`,
      'not_found',
    );
  }
  const { event, body } = found;
  const started = events.find((e): e is RunEventOf<'run.started'> => e.type === 'run.started');
  const recorded = started?.agentDefinition;
  return {
    runId,
    seq,
    agent: event.agent,
    step: event.step,
    body,
    isRecorded: event.messages !== undefined || !hasImages(body),
    recordedReply: replyOf(events, event),
    profile: profileOf(started, event.agent, config),
    profiles,
    // the definition's prompt is its agent's: a planner's or a page extractor's call is not
    agentDefinition:
      recorded && event.agent === started?.agent && event.messages === undefined
        ? {
            name: recorded.definition.name,
            source: recorded.source,
            ...(recorded.version !== undefined ? { version: recorded.version } : {}),
            systemPrompt: recorded.definition.system_prompt,
          }
        : null,
  };
}

/** An image's bytes are not in the events: such a rebuilt request holds a placeholder. */
function hasImages(body: Record<string, unknown>): boolean {
  return JSON.stringify(body['messages'] ?? []).includes('"image_url"');
}

/** The `llm.responded` answering this call: the agent's next answer at that step. */
function replyOf(
  events: readonly RunEvent[],
  request: RunEventOf<'llm.requested'>,
): PlaygroundReply | null {
  for (const e of events) {
    if (e.seq <= request.seq || !('agent' in e) || e.agent !== request.agent) continue;
    if (e.type === 'llm.requested') return null;
    if (e.type === 'llm.responded' && e.step === request.step) {
      return {
        content: e.content,
        toolCalls: e.toolCalls,
        finishReason: e.finishReason,
        usage: e.usage,
        model: e.model,
        durationMs: e.durationMs,
      };
    }
  }
  return null;
}

/**
 * The profile the run recorded (`llm.profile`, a flow's `AGENT.llm.profile`), when
 * config.toml still has it; else `default`.
 */
function profileOf(
  started: RunEventOf<'run.started'> | undefined,
  agent: string,
  config: WorkbenchConfig,
): string {
  const settings = started?.settings ?? {};
  const named = settings[`${agent}.llm.profile`] ?? settings['llm.profile'];
  return typeof named === 'string' && config.llm.profiles[named] ? named : 'default';
}
