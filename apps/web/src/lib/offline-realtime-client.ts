// For the realtime client's unit tests: a client that never opens a socket.

// realtime.ts opens the tab's socket URL at import; give it a location first.
(globalThis as { location?: unknown }).location ??= { protocol: 'http:', host: '127.0.0.1' };
// Node before 22 has no WebSocket; the client only reads its OPEN constant here.
(globalThis as { WebSocket?: unknown }).WebSocket ??= { OPEN: 1 };
const { RealtimeClient } = await import('./realtime.ts');

/**
 * A client whose socket is a recorder: the test hands it the server's messages on topic, and
 * reads what the client sent.
 */
export function offlineClient(topic: string) {
  const client = new RealtimeClient('ws://127.0.0.1:9/never');
  const sent: unknown[] = [];
  const inner = client as unknown as {
    stopped: boolean;
    socket: unknown;
    onMessage(raw: string): void;
  };
  inner.stopped = true;
  inner.socket = { readyState: 1, send: (raw: string) => sent.push(JSON.parse(raw)) };
  const message = (m: object) => inner.onMessage(JSON.stringify({ topic, ...m }));
  return { client, sent, message };
}
