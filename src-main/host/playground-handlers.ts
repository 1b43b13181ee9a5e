/**
 * The contract's playground requests (issue 28 item 4, docs/playground.md):
 * `playground:open` reads a model call of a run's history as its exact request,
 * `playground:send` sends an edited request N times from here with the chosen profile's
 * base URL and key (the UI only ever names the profile) and pushes the text as it streams
 * (`playground:delta`), `playground:save-prompt` saves a system prompt into the run's
 * agent. None of them writes the run's history.
 */
import type { PlaygroundDelta } from '@shared/domain/playground';
import type { Runtime } from '../runtime/runtime';
import {
  PlaygroundRequestError,
  playgroundRequest,
} from '../runtime/playground/playground-request';
import { sendPlaygroundRequest } from '../runtime/playground/playground-send';
import { savePromptIntoAgent } from '../runtime/agents/definitions/save-prompt';
import { AgentDefinitionError } from '../runtime/agents/definitions/load-definition';
import { definitionContext } from '../runtime/launch/run-definition';
import type { LlmProfile } from '../runtime/config/schema';
import type { RunEvent } from '@shared/events';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type PlaygroundChannel = 'playground:open' | 'playground:send' | 'playground:save-prompt';

export function createPlaygroundHandlers(
  runtime: Runtime,
  onDelta: (delta: PlaygroundDelta) => void,
): Pick<Handlers, PlaygroundChannel> {
  const { runs, services } = runtime;
  const eventsOf = (runId: string): RunEvent[] => {
    const log = runs.history.read(runId);
    if (!log) throw new HandlerError('not_found', `No run with id ${runId}`);
    return log.events;
  };
  return {
    'playground:open': async ({ runId, seq }) => {
      const config = services.config.load();
      try {
        // each profile's model as it resolves today ([llm] under [llm.NAME]); never its key
        const profiles = ['default', ...Object.keys(config.llm.profiles).sort()].map((name) => ({
          name,
          model: services.config.resolveNamedProfile(name, config).model,
        }));
        return playgroundRequest(runId, seq, eventsOf(runId), config, profiles);
      } catch (error) {
        if (error instanceof PlaygroundRequestError)
          throw new HandlerError(error.code, error.message);
        throw error;
      }
    },
    'playground:send': async ({ sendId, body, profile, samples }) => {
      const resolved = sendableProfile(runtime, profile);
      const sent = await sendPlaygroundRequest({
        sendId,
        body,
        profile: resolved,
        samples,
        onDelta,
      });
      return { sendId, mode: 'requests', samples: sent };
    },
    'playground:save-prompt': async ({ runId, systemPrompt, asName }) => {
      const started = eventsOf(runId).find((e) => e.type === 'run.started');
      const recorded = started?.type === 'run.started' ? started.agentDefinition : undefined;
      if (!recorded) {
        throw new HandlerError(
          'conflict',
          `Run ${runId} recorded no agent definition (a flow, or a run older than definitions): there is no agent to save the prompt into`,
        );
      }
      try {
        const saved = savePromptIntoAgent(
          services.home,
          definitionContext(services.config.load()),
          recorded,
          systemPrompt,
          asName,
        );
        return { name: saved.name, version: saved.version, isDuplicate: saved.isDuplicate };
      } catch (error) {
        if (error instanceof AgentDefinitionError) {
          throw new HandlerError('invalid_input', error.message, error.issues);
        }
        throw error;
      }
    },
  };
}

/** The profile with its key; one the playground cannot send to is refused with the fix. */
function sendableProfile(runtime: Runtime, name: string): LlmProfile {
  let profile: LlmProfile;
  try {
    profile = runtime.services.config.resolveNamedProfile(name);
  } catch (error) {
    throw new HandlerError('invalid_input', (error as Error).message);
  }
  const table = name === 'default' ? '[llm]' : `[llm.${name}]`;
  if (profile.apiType === 'scripted') {
    throw new HandlerError(
      'conflict',
      `The profile ${table} is api_type = "scripted": it answers from a scenario file, not a model server. Choose a profile with a base_url to send the request to.`,
    );
  }
  if (!profile.apiKey && profile.apiType !== 'ollama') {
    throw new HandlerError(
      'conflict',
      `The profile ${table} has no API key: set one in Settings → Models (or choose another profile).`,
    );
  }
  return profile;
}
