/**
 * Visits items in slices of at most sliceMs each, one per turn of the event loop: the writes,
 * frames and timers that arrive meanwhile are served between slices instead of waiting for all
 * of it. onDone runs right after the last item. Returns what stops the slices still to come.
 */
export function eachInSlices<T>(
  items: readonly T[],
  visit: (item: T) => void,
  sliceMs: number,
  onDone?: () => void,
): () => void {
  let next = 0;
  let pending: NodeJS.Immediate | undefined;
  const slice = () => {
    const until = performance.now() + sliceMs;
    while (next < items.length) {
      visit(items[next++]!);
      if (performance.now() > until) break;
    }
    if (next < items.length) pending = setImmediate(slice);
    else onDone?.();
  };
  slice();
  return () => {
    if (pending) clearImmediate(pending);
  };
}
