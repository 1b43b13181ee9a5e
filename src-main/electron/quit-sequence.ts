/**
 * Quitting stops every run and releases what they hold (sandboxes, browsers) before the
 * process exits: the first `before-quit` is held back until the runtime is disposed.
 */
import type { Runtime } from '../runtime/runtime';
import type { ElectronHost } from '../host/electron/electron-host';

export interface QuitSequenceDeps {
  runtime: Pick<Runtime, 'dispose'>;
  host: Pick<ElectronHost, 'dispose'>;
  /** upper bound so a stuck cleanup never keeps the app alive */
  timeoutMs?: number;
}

export function createQuitSequence(deps: QuitSequenceDeps) {
  let phase: 'running' | 'disposing' | 'done' = 'running';
  return {
    get phase() {
      return phase;
    },
    onBeforeQuit(event: { preventDefault(): void }, quitAgain: () => void): void {
      if (phase === 'done') return;
      event.preventDefault();
      if (phase === 'disposing') return;
      phase = 'disposing';
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, deps.timeoutMs ?? 10_000));
      void Promise.race([deps.runtime.dispose(), timeout])
        .catch((error: unknown) =>
          console.error(`[workbench] shutdown: ${(error as Error).message}`),
        )
        .finally(() => {
          deps.host.dispose();
          phase = 'done';
          quitAgain();
        });
    },
  };
}
