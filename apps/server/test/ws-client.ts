import WebSocket, { type ClientOptions } from 'ws';
import {
  serverMessageSchema,
  type ServerMessage,
  type ClientMessage,
} from '@sagan/shared/realtime';
import { applyPlayCountDelta, type PlayCountDelta } from '@sagan/shared/playcount-delta';
import type { GameDetail } from '@sagan/shared/topics/game-detail';

export type StateMessage = Extract<ServerMessage, { type: 'state' }>;
type ErrorMessage = Extract<ServerMessage, { type: 'error' }>;

export const isState =
  (topic: string) =>
  (m: ServerMessage): m is StateMessage =>
    m.type === 'state' && m.topic === topic;

/** A real WebSocket client for tests: collects parsed server messages, waits for conditions. */
export class TestSocket {
  readonly messages: ServerMessage[] = [];
  private waiters: Array<() => void> = [];
  closed: { code: number } | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const msg = serverMessageSchema.parse(JSON.parse(raw.toString()));
      this.messages.push(msg);
      if (msg.type === 'delta') this.applyDelta(msg);
      this.waiters.forEach((w) => w());
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.waiters.forEach((w) => w());
    });
  }

  static open(
    url: string,
    headers: Record<string, string> = {},
    options: ClientOptions = {},
  ): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { ...options, headers });
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`handshake refused: ${res.statusCode}`)),
      );
      ws.once('error', reject);
    });
  }

  /**
   * A delta topic's change (the play counts'), applied as the web client applies it to the
   * state held: the result is recorded as that topic's next state, so tests read states alike.
   * A delta that does not follow the state held is left as it is (the test sees the gap).
   */
  private applyDelta(msg: Extract<ServerMessage, { type: 'delta' }>): void {
    const held = this.states(msg.topic).at(-1);
    if (!held || held.seq !== msg.seq - 1 || held.data === null) return;
    const data = applyPlayCountDelta(
      held.data as Parameters<typeof applyPlayCountDelta>[0],
      msg.data as PlayCountDelta,
    );
    this.messages.push({ type: 'state', topic: msg.topic, seq: msg.seq, data });
  }

  send(msg: ClientMessage): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** Subscribes to topic and resolves with the state that answers it. */
  subscribe(topic: string): Promise<StateMessage> {
    const from = this.messages.length;
    this.send({ type: 'subscribe', topic });
    return this.waitFor(isState(topic), from);
  }

  /** Subscribes to topic and resolves with its answer: the state, or the error refusing it. */
  subscribeAnswer(topic: string): Promise<StateMessage | ErrorMessage> {
    const from = this.messages.length;
    this.send({ type: 'subscribe', topic });
    return this.waitFor(
      (m): m is StateMessage | ErrorMessage =>
        (m.type === 'state' || m.type === 'error') && m.topic === topic,
      from,
    );
  }

  /**
   * The first state of topic, from index `from` on, whose data shows what the test waits for.
   * Not "the next frame after index N": a frame of an earlier write (announced late, or kept
   * and sent to a new subscriber) may come first, still showing the state before the change.
   */
  stateShowing<D>(
    topic: string,
    shows: (data: D) => boolean,
    from = 0,
    timeoutMs?: number,
  ): Promise<StateMessage & { data: D }> {
    return this.waitFor(
      (m): m is StateMessage & { data: D } => isState(topic)(m) && shows(m.data as D),
      from,
      timeoutMs,
    );
  }

  /**
   * The state of topic at sequence number `seq` or past it: the frame of the write that
   * answered (or made) that number, whatever frames of earlier writes arrive around it.
   */
  stateAt(topic: string, seq: number, timeoutMs?: number): Promise<StateMessage> {
    return this.waitFor((m): m is StateMessage => isState(topic)(m) && m.seq >= seq, 0, timeoutMs);
  }

  /**
   * Everything the server wrote to this socket before now has arrived: a pong is written after
   * any frame already sent on the same socket. The positive signal that a frame did not come.
   */
  async drained(): Promise<void> {
    const from = this.messages.length;
    this.send({ type: 'ping' });
    await this.waitFor((m): m is ServerMessage => m.type === 'pong', from);
  }

  /** Every state of topic received so far, oldest first. */
  states(topic: string): StateMessage[] {
    return this.messages.filter(isState(topic));
  }

  /** Resolves with the first message (from index `from`) matching pred; rejects on timeout. */
  waitFor<T extends ServerMessage>(
    pred: (m: ServerMessage) => m is T,
    from = 0,
    timeoutMs = 5000,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.slice(from).find(pred);
        if (found) {
          cleanup();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out; got ${JSON.stringify(this.messages.slice(from))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
      };
      this.waiters.push(check);
      check();
    });
  }

  waitClosed(timeoutMs = 5000): Promise<{ code: number }> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.closed) resolve(this.closed);
      };
      setTimeout(() => reject(new Error('socket did not close')), timeoutMs);
      this.waiters.push(check);
      check();
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** The frame of a game's line and box score that shows what `shows` looks for (a null is none). */
export function gameDetailShowing(
  ws: TestSocket,
  gameKey: string,
  shows: (d: GameDetail) => boolean,
  from = 0,
): Promise<StateMessage & { data: GameDetail }> {
  return ws.stateShowing<GameDetail>(`gamedetail:${gameKey}`, (d) => d !== null && shows(d), from);
}
