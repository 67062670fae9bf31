// How a realtime viewer waits before reconnecting (DESIGN §4): exponential from 500 ms, capped at
// 15 s, with "equal jitter" (half fixed, half random) so viewers cut off together do not all come
// back in the same instant. Zod-free on purpose: it is on every page's first load.
export const MIN_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 15_000;

export function reconnectDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** attempts);
  return base / 2 + random() * (base / 2);
}
