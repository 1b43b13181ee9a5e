import { useEffect, useState } from 'react';

export type Requested<T> =
  { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; error: string };

/** The answer of `load` for the current `key`; a newer key drops an older answer. */
export function useRequest<T>(key: string | null, load: () => Promise<T>): Requested<T> {
  const [state, setState] = useState<{ key: string | null; value: Requested<T> }>({
    key: null,
    value: { status: 'loading' },
  });
  useEffect(() => {
    if (key === null) return;
    let isCurrent = true;
    load().then(
      (value) => isCurrent && setState({ key, value: { status: 'loaded', value } }),
      (error: unknown) =>
        isCurrent &&
        setState({
          key,
          value: {
            status: 'failed',
            error: error instanceof Error ? error.message : String(error),
          },
        }),
    );
    return () => {
      isCurrent = false;
    };
    // load is a closure over the key's parts: the key alone says when to ask again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state.key === key ? state.value : { status: 'loading' };
}
