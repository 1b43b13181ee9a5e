/**
 * Loads a comparison from the main process (`runs:diff` or `runs:compare`) for the
 * compare page; a newer request wins over an older one still on its way.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type Loaded<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: string };

export function useLoaded<T>(load: () => Promise<T>, key: string): Loaded<T> & { reload(): void } {
  const [state, setState] = useState<{ key: string; loaded: Loaded<T> }>({
    key,
    loaded: { status: 'loading' },
  });
  const [nonce, setNonce] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const ticket = ++latest.current;
    load().then(
      (value) => {
        if (ticket === latest.current) setState({ key, loaded: { status: 'ready', value } });
      },
      (error: unknown) => {
        if (ticket === latest.current) {
          const message = error instanceof Error ? error.message : String(error);
          setState({ key, loaded: { status: 'error', error: message } });
        }
      },
    );
    // `load` changes with every render; the key says when the request changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const loaded: Loaded<T> = state.key === key ? state.loaded : { status: 'loading' };
  return { ...loaded, reload };
}
