import { RealtimeErrorCode } from '@sagan/shared/realtime';
/**
 * What one client may ask of the realtime server (DESIGN §9: limits scale with
 * RATE_LIMIT_FACTOR). At factor 1 a page holds a handful of topics and sends a few messages a
 * second, and a venue's wifi puts a few hundred viewers behind one NAT address; each limit
 * leaves that room many times over, while one socket can no longer subscribe to 20,000 topics
 * or keep the server busy with a stream of messages.
 */
export interface SocketLimits {
  /** Distinct topics one socket may hold (subscribed, or asked for and not yet answered). */
  topicsPerSocket: number;
  /** Sustained client messages per second per socket. */
  messagesPerSecond: number;
  /** Messages a socket may send at once (a reconnect resubscribes every topic it had). */
  messageBurst: number;
  /** Open sockets per client address. */
  socketsPerAddress: number;
  /**
   * Sustained bytes per second a socket's own messages may cost: what it sends, and what the
   * server sends back because it asked (a subscribe's whole state, a pong). Changes pushed to
   * its topics are not counted: the socket did not ask for them.
   */
  bytesPerSecond: number;
  /** Bytes a socket may cost at once (a page opening, a reconnect resubscribing). */
  byteBurst: number;
}

export function socketLimits(factor: number): SocketLimits {
  const scaled = (n: number) => Math.max(1, Math.ceil(n * factor));
  return {
    topicsPerSocket: scaled(200),
    messagesPerSecond: 20 * factor,
    messageBurst: scaled(250),
    socketsPerAddress: scaled(200),
    // A page's states are a few KB, the largest (a 500-player roster) about 1 MB: a page can
    // open several such and reconnect, while subscribing to one in a loop, which re-sends
    // its whole state each time, is cut off after a few MB instead of tens of MB a second.
    bytesPerSecond: 256 * 1024 * factor,
    byteBurst: scaled(8 * 1024 * 1024),
  };
}

/** Close codes (4000–4999 are the application's): the client may reconnect after them. */
export const CLOSE_TOO_MANY_MESSAGES = 4029;
export const CLOSE_TOO_MANY_SOCKETS = 4008;
/** Error code of a subscribe over topicsPerSocket; the socket stays open. */
export const TOPIC_LIMIT = RealtimeErrorCode.TopicLimit;

/**
 * A token bucket: `burst` tokens at once, refilled at `perSecond`; one for the messages a socket
 * sends, one for the bytes they cost. A take goes ahead while at least one token is left and
 * may overdraw the bucket (a state bigger than the byte burst is still served once); the next
 * is refused until the refill has brought it back to one.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.last = now;
  }

  take(amount = 1, now = Date.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= amount;
    return true;
  }
}

/** Open sockets per client address; an address leaves the map with its last socket. */
export class AddressCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts a new socket from `address`; false (and not counted) when it would exceed max. */
  open(address: string): boolean {
    const n = this.counts.get(address) ?? 0;
    if (n >= this.max) return false;
    this.counts.set(address, n + 1);
    return true;
  }

  close(address: string): void {
    const n = this.counts.get(address) ?? 0;
    if (n <= 1) this.counts.delete(address);
    else this.counts.set(address, n - 1);
  }
}

/**
 * The topics one socket has asked for. Counted when the subscribe arrives, before the hub's
 * (asynchronous) authorization and load, so a burst of subscribes cannot overshoot the cap
 * while the first ones are still in flight.
 */
export class TopicQuota {
  private readonly topics = new Set<string>();

  constructor(private readonly max: number) {}

  /** False when `topic` is new and the socket already holds the most it may. */
  admit(topic: string): boolean {
    if (this.topics.has(topic)) return true;
    if (this.topics.size >= this.max) return false;
    this.topics.add(topic);
    return true;
  }

  release(topic: string): void {
    this.topics.delete(topic);
  }
}
