import { z } from 'zod';

// DESIGN §4 topics. A topic's message is always the whole current state of that topic, so a
// client that missed updates converges by taking the newest one (see docs/decisions). Each
// family of topics (its name builder, payload schema, privacy) is declared in src/topics/.
export const topicSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[a-z]+(:[A-Za-z0-9_:-]+)?$/, 'unknown topic');

import { ClientMessageType, RealtimeErrorCode, ServerMessageType } from './realtime-envelope.ts';

export { ClientMessageType, RealtimeErrorCode, ServerMessageType };

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(ClientMessageType.Subscribe),
    topic: topicSchema,
    /** The last sequence number the client saw for this topic, when resuming. */
    sinceSeq: z.number().int().nonnegative().optional(),
  }),
  z.object({ type: z.literal(ClientMessageType.Unsubscribe), topic: topicSchema }),
  z.object({ type: z.literal(ClientMessageType.Ping) }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(ServerMessageType.State),
    topic: z.string(),
    seq: z.number().int().nonnegative(),
    data: z.unknown(),
  }),
  /** Applied by the topic family's applyDelta to the state of number seq - 1. */
  z.object({
    type: z.literal(ServerMessageType.Delta),
    topic: z.string(),
    seq: z.number().int().nonnegative(),
    data: z.unknown(),
  }),
  /** Sent on a resume when the client already holds the newest state. */
  z.object({
    type: z.literal(ServerMessageType.Current),
    topic: z.string(),
    seq: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal(ServerMessageType.Error),
    topic: z.string().optional(),
    message: z.string(),
    /** A machine-readable reason, when a client may act on it. */
    code: z
      .enum([RealtimeErrorCode.SignedOut, RealtimeErrorCode.TopicLimit, RealtimeErrorCode.NoAccess])
      .optional(),
  }),
  z.object({ type: z.literal(ServerMessageType.Pong) }),
  /** The server is going away; reconnect after about this many ms. */
  z.object({ type: z.literal(ServerMessageType.Reconnect), afterMs: z.number() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export const MAX_FRAME_BYTES = 64 * 1024;
