// The socket envelope's vocabulary, and the check every viewer runs on every message. Zod-free:
// the realtime client is on every page's first load, and the envelope is small enough to check
// by its constants. `serverMessageSchema` (realtime.ts) is built from the same constants, and a
// unit test holds the two to the same answers for every code and message type.

export const ClientMessageType = {
  Subscribe: 'subscribe',
  Unsubscribe: 'unsubscribe',
  Ping: 'ping',
} as const;

export const ServerMessageType = {
  State: 'state',
  /** A change to the state the client holds (delta topics only, never the first frame). */
  Delta: 'delta',
  Current: 'current',
  Error: 'error',
  Pong: 'pong',
  Reconnect: 'reconnect',
} as const;

/**
 * Why an error ended a subscription, when the client should act on it. 'signed-out': the
 * socket's session ended (signed out here or elsewhere, expired, idle too long); private topics
 * are refused from then on and the page should reload who is signed in. 'no-access': the
 * socket's user may no longer see this topic (removed as a co-scorer, the game deleted): the
 * server dropped the subscription, and what the client held of it is no longer theirs.
 */
export const RealtimeErrorCode = {
  SignedOut: 'signed-out',
  TopicLimit: 'topic-limit',
  NoAccess: 'no-access',
} as const;
export type RealtimeErrorCode = (typeof RealtimeErrorCode)[keyof typeof RealtimeErrorCode];

/** What parseServerMessage returns; realtime.ts's ServerMessage is the same shape. */
type Envelope =
  | { type: 'state'; topic: string; seq: number; data: unknown }
  | { type: 'delta'; topic: string; seq: number; data: unknown }
  | { type: 'current'; topic: string; seq: number }
  | { type: 'error'; topic?: string; message: string; code?: RealtimeErrorCode }
  | { type: 'pong' }
  | { type: 'reconnect'; afterMs: number };

const ERROR_CODES = new Set<unknown>(Object.values(RealtimeErrorCode));
const isSeq = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** A server message, or null when it is not one (not JSON, or not a known envelope). */
export function parseServerMessage(raw: string): Envelope | null {
  let m: unknown;
  try {
    m = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!m || typeof m !== 'object') return null;
  const o = m as Record<string, unknown>;
  switch (o.type) {
    case ServerMessageType.State:
    case ServerMessageType.Delta:
      return typeof o.topic === 'string' && isSeq(o.seq) && 'data' in o ? (o as Envelope) : null;
    case ServerMessageType.Current:
      return typeof o.topic === 'string' && isSeq(o.seq) ? (o as Envelope) : null;
    case ServerMessageType.Error:
      return typeof o.message === 'string' &&
        (o.topic === undefined || typeof o.topic === 'string') &&
        (o.code === undefined || ERROR_CODES.has(o.code))
        ? (o as Envelope)
        : null;
    case ServerMessageType.Pong:
      return o as Envelope;
    case ServerMessageType.Reconnect:
      return typeof o.afterMs === 'number' ? (o as Envelope) : null;
    default:
      return null;
  }
}
