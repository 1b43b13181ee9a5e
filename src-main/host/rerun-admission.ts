/**
 * "Run again" (`run:start` with `rerunOf`) before anything is recorded (issue 25 item 10):
 * with the settings the run recorded (the default), they must rebuild into a config whose
 * key is at hand; when they cannot (a run recorded before runs kept their settings, an
 * imported run whose endpoint has no profile here, a key that is gone), the re-run is
 * refused with why and what to do. `current` takes config.toml as it is now.
 */
import type { RunStartInput } from '@shared/ipc';
import {
  RerunSettingsError,
  withRecordedSettings,
  type RecordedRun,
} from '../runtime/launch/recorded-settings';
import type { Runtime } from '../runtime/runtime';
import { recordedAgentOf } from '../runtime/runs/recorded-agent';
import { whyAgentCannotStart } from '@shared/run-agent';
import { HandlerError } from './handler-error';

/**
 * "Run again" starts the agent the run recorded, whatever the window sent: a user's agent
 * at the version it ran (the window knows only its name), a flow, a built-in agent. A run
 * of an agent the workbench only recorded (the gateway's, an OpenTelemetry import, a
 * sandbox MCP session) is refused with what to do instead, before anything is recorded.
 */
export function rerunAgentInput(runtime: Runtime, input: RunStartInput): RunStartInput {
  if (input.rerunOf === undefined) return input;
  const snapshot = runtime.runs.snapshot(input.rerunOf, 0, 1);
  if (!snapshot) throw new HandlerError('not_found', `No run with id ${input.rerunOf}`);
  const started = snapshot.events[0];
  const agent = started?.type === 'run.started' ? recordedAgentOf(started) : undefined;
  if (!agent) {
    throw new HandlerError(
      'conflict',
      `The run cannot start: ${whyAgentCannotStart(input.rerunOf, snapshot.summary) ?? `run ${input.rerunOf} recorded no agent`}`,
    );
  }
  const { agent: _agent, agentRef: _ref, flow: _flow, ...rest } = input;
  return { ...rest, ...agent };
}

export function admitRerun(runtime: Runtime, input: RunStartInput): { recorded?: RecordedRun } {
  if (input.rerunOf === undefined || input.rerunSettings === 'current') return {};
  const { runs, services } = runtime;
  const snapshot = runs.snapshot(input.rerunOf, 0, 1);
  if (!snapshot) throw new HandlerError('not_found', `No run with id ${input.rerunOf}`);
  const started = snapshot.events[0];
  const recorded: RecordedRun = {
    runId: input.rerunOf,
    // a user's agent's settings are those of the slot that carries its profile
    agent:
      input.agentRef !== undefined && !input.flow
        ? (input.agent ?? 'manus')
        : snapshot.summary.agent,
    ...(snapshot.summary.flow ? { flow: snapshot.summary.flow } : {}),
    ...(started?.type === 'run.started' && started.settings ? { settings: started.settings } : {}),
    ...(snapshot.summary.isImported ? { isImported: true } : {}),
  };
  try {
    withRecordedSettings(services.loadConfig(), recorded, (raw) =>
      services.config.resolveApiKey(raw),
    );
  } catch (error) {
    if (!(error instanceof RerunSettingsError)) throw error;
    throw new HandlerError(
      'conflict',
      `The run cannot start with its recorded settings: ${error.message}`,
    );
  }
  return { recorded };
}
