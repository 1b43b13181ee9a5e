/**
 * What "does the sandbox engine answer" means with several engines: available when any
 * answers; the version names each engine that does, and how many do not.
 */
import type { EngineAnswer } from './engine-pool';

export interface EngineProbe {
  isAvailable: boolean;
  version?: string;
  error?: string;
}

export function summarizeAnswers(answers: readonly EngineAnswer[]): EngineProbe {
  const up = answers.filter((a) => a.info);
  if (up.length === 0) {
    const errors = answers.map((a) =>
      answers.length > 1 ? `${a.endpoint}: ${a.error?.message}` : (a.error?.message ?? ''),
    );
    return { isAvailable: false, error: errors.join('; ') };
  }
  if (answers.length === 1) return { isAvailable: true, version: up[0]!.info!.version };
  const down = answers.length - up.length;
  return {
    isAvailable: true,
    version:
      up.map((a) => `${a.info!.version} at ${a.endpoint}`).join(', ') +
      (down > 0 ? ` (${down} of ${answers.length} engines do not answer)` : ''),
  };
}
