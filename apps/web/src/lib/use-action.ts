import { useCallback, useEffect, useRef, useState } from 'react';

type ActionState<O> =
  | { status: 'idle' }
  | { status: 'pending' }
  | { status: 'success'; data: O }
  | { status: 'error'; error: Error };

/** What a screen reads of a write it started: TanStack's mutation result, the part we use. */
export interface Action<I, O> {
  mutate(input: I, callbacks?: { onSuccess?: (data: O) => void }): void;
  reset(): void;
  isPending: boolean;
  isSuccess: boolean;
  data: O | undefined;
  error: Error | null;
}

/**
 * A write started from a screen, with its pending, error and success states: a viewer's first
 * load (the board, the lists, the shell) writes with this instead of TanStack Query's
 * useMutation, which stays with the owner's screens (docs/decisions/0011). The latest call's
 * answer wins; an answer arriving after the screen has gone is dropped.
 */
export function useAction<I, O>(
  run: (input: I) => Promise<O>,
  onSuccess?: (data: O) => void,
): Action<I, O> {
  const [state, setState] = useState<ActionState<O>>({ status: 'idle' });
  const latest = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const mutate = useCallback(
    (input: I, callbacks?: { onSuccess?: (data: O) => void }) => {
      const call = ++latest.current;
      setState({ status: 'pending' });
      run(input).then(
        (data) => {
          onSuccess?.(data);
          if (!mounted.current || call !== latest.current) return;
          setState({ status: 'success', data });
          callbacks?.onSuccess?.(data);
        },
        (err: unknown) => {
          if (!mounted.current || call !== latest.current) return;
          setState({ status: 'error', error: err instanceof Error ? err : new Error(String(err)) });
        },
      );
    },
    [run, onSuccess],
  );
  const reset = useCallback(() => {
    latest.current++;
    setState({ status: 'idle' });
  }, []);
  return {
    mutate,
    reset,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    data: state.status === 'success' ? state.data : undefined,
    error: state.status === 'error' ? state.error : null,
  };
}
