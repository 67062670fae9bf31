import { afterAll } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { RealtimeClient } from '../apps/web/src/lib/realtime.ts';

/**
 * The web app's realtime clients for a suite, run in Node. Node 20 has no global WebSocket:
 * the ws package's stands in (it speaks the same protocol), sending `headers()` with each
 * upgrade as a browser sends the page's cookie. The globals the client reads are set for the
 * suite and put back after it, and every client made here is closed then, so no reconnect
 * outlives the suite's server or reaches the next file's.
 */
export function useWebRealtime(
  headers: () => Record<string, string> = () => ({}),
): (url: string | (() => string)) => RealtimeClient {
  class HeaderWebSocket extends NodeWebSocket {
    constructor(url: string) {
      super(url, { headers: headers() });
    }
  }
  const g = globalThis as { WebSocket?: unknown; location?: unknown };
  const saved = { WebSocket: g.WebSocket, location: g.location };
  g.WebSocket = HeaderWebSocket;
  g.location ??= { protocol: 'http:', host: '127.0.0.1' };
  const clients: RealtimeClient[] = [];
  afterAll(() => {
    for (const client of clients) client.close();
    g.WebSocket = saved.WebSocket;
    g.location = saved.location;
  });
  return (url) => {
    const client = new RealtimeClient(url);
    clients.push(client);
    return client;
  };
}
