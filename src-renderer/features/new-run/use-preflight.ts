import { useEffect, useState } from 'react';
import type { PreflightInput, PreflightReport } from '@shared/ipc';
import { useBridge } from '../../store/StoreProvider';

export type PreflightState =
  | { status: 'checking'; report?: PreflightReport }
  | { status: 'done'; report: PreflightReport }
  | { status: 'failed'; error: string };

/** Settles typing in the workspace field before asking again. */
const DEBOUNCE_MS = 300;

type Answer = { key: string } & ({ report: PreflightReport } | { error: string });

/**
 * Pre-flight of the run the form would start, asked again whenever the agent, the flow,
 * the workspace or the config changes (a save in Settings can fix a problem). While a
 * new answer is on its way the previous one stays visible.
 */
export function usePreflight(input: PreflightInput, configVersion: unknown): PreflightState {
  const bridge = useBridge();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [configSeen, setConfigSeen] = useState<unknown>(configVersion);
  const key = JSON.stringify(input);
  const isStale = answer?.key !== key || configSeen !== configVersion;
  useEffect(() => {
    let isCurrent = true;
    const timer = setTimeout(() => {
      bridge.settings.preflight(JSON.parse(key) as PreflightInput).then(
        (report) => {
          if (!isCurrent) return;
          setConfigSeen(configVersion);
          setAnswer({ key, report });
        },
        (error: unknown) => {
          if (!isCurrent) return;
          setConfigSeen(configVersion);
          setAnswer({ key, error: (error as Error).message });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [bridge, key, configVersion]);
  if (answer && 'error' in answer && !isStale) return { status: 'failed', error: answer.error };
  const report = answer && 'report' in answer ? answer.report : undefined;
  if (isStale) return { status: 'checking', ...(report ? { report } : {}) };
  return report ? { status: 'done', report } : { status: 'checking' };
}
