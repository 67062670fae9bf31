// How a realtime viewer waits before reconnecting (DESIGN §4): exponential from 500 ms, capped at
// 15 s, with "equal jitter" (half fixed, half random) so viewers cut off together do not all come
// back in the same instant. Zod-free on purpose: it is on every page's first load.
export const MIN_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 15_000;

export function reconnectDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** attempts);
  return base / 2 + random() * (base / 2);
}

/**
 * The reconnects of one connection: one wait at a time, backing off over the attempts since it
 * last opened. The web's realtime client and the reconnect-storm script's viewers both use it,
 * so the storm measures the client's own timing.
 */
export class Reconnects {
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly connect: () => void,
    private readonly random: () => number = Math.random,
  ) {}

  /** Connecting now would be wrong: stopped for good, or a reconnect is already waiting. */
  get holding(): boolean {
    return this.stopped || this.timer !== null;
  }

  /** The connection opened (or is made anew): the next drop backs off from the start. */
  reset(): void {
    this.attempts = 0;
  }

  /** After a drop: connect again after the backoff, or after delayMs. */
  schedule(delayMs?: number): void {
    if (this.holding) return;
    const delay = delayMs ?? reconnectDelayMs(this.attempts, this.random);
    this.attempts++;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  /**
   * The server asked to come back after afterMs (its node is draining): somewhere between half
   * and one and a half of it, so its viewers do not all arrive at the next node at once.
   */
  scheduleAsked(afterMs: number): void {
    this.schedule(afterMs / 2 + this.random() * afterMs);
  }

  /** No more reconnects. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
