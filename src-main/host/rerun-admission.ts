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
import { HandlerError } from './handler-error';

export function admitRerun(runtime: Runtime, input: RunStartInput): { recorded?: RecordedRun } {
  if (input.rerunOf === undefined || input.rerunSettings === 'current') return {};
  const { runs, services } = runtime;
  const snapshot = runs.snapshot(input.rerunOf, 0, 1);
  if (!snapshot) throw new HandlerError('not_found', `No run with id ${input.rerunOf}`);
  const started = snapshot.events[0];
  const recorded: RecordedRun = {
    runId: input.rerunOf,
    agent: snapshot.summary.agent,
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
