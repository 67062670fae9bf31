import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { nginxBinary, NGINX_SITE, startNginx, type Nginx } from '../../../scripts/lib/nginx.ts';
import { root } from '../../../scripts/lib/server.ts';
import { loadConfig } from '../src/config.ts';
import { postgresKindIfAny, useTwoNodes } from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';

// docs/deploy.md: two nodes on one PostgreSQL behind Debian's nginx, with the very site file
// and systemd unit that page shows. Any request may reach any node (no sticky sessions).

const UNIT = path.join(root, 'deploy/sagan@.service');
const doc = () => fs.readFileSync(path.join(root, 'docs/deploy.md'), 'utf8');

describe('docs/deploy.md', () => {
  it('shows the nginx site file and the systemd unit exactly as the test runs them', () => {
    expect(doc()).toContain(fs.readFileSync(NGINX_SITE, 'utf8'));
    expect(doc()).toContain(fs.readFileSync(UNIT, 'utf8'));
  });

  it("the unit's settings are a configuration the server accepts", () => {
    const env: Record<string, string> = {
      DATABASE_URL: 'postgres://sagan@/sagan',
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
    };
    for (const line of fs.readFileSync(UNIT, 'utf8').split('\n')) {
      const m = /^Environment=([A-Z_]+)=(.*)$/.exec(line);
      if (m) env[m[1]!] = m[2]!.replace('%i', '3001');
    }
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['PORT', 'HOST', 'TRUST_PROXY']));
    const config = loadConfig(env);
    expect(config.trustProxy).toEqual(['127.0.0.1']);
    expect(config.port).toBe(3001);
  });
});

const postgres = postgresKindIfAny();
// The test command installs nginx (scripts/test.sh); elsewhere a missing nginx skips this.
const nginxMissing = !nginxBinary();
if (nginxMissing && process.env.REQUIRE_POSTGRES === '1') {
  throw new Error('nginx is not installed (scripts/test.sh installs it)');
}

describe.runIf(postgres && !nginxMissing)('two nodes behind nginx, one PostgreSQL', () => {
  // The nodes trust forwarded headers from the proxy's address only.
  const t = useTwoNodes(postgres, { config: { trustProxy: ['127.0.0.1'] } });
  let nodes: FastifyInstance[];
  let nginx: Nginx;
  /** Requests each node served, by node index. */
  const served = [0, 0];

  beforeAll(async () => {
    nodes = [t.nodeA, t.nodeB];
    for (const [i, app] of nodes.entries()) app.server.on('request', () => served[i]!++);
    nginx = await startNginx(
      nodes.map((n) => `127.0.0.1:${(n.server.address() as AddressInfo).port}`),
    );
  });
  // Runs before the nodes close (after-hooks run in reverse), so nginx never points at nothing.
  afterAll(async () => {
    await nginx?.stop();
  });

  it('a viewer on one node sees every score the scorekeeper sends through the other', async () => {
    const api = `${nginx.url}/apps/sagan/api`;
    const signIn = await fetch(`${api}/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sagan-request': '1' },
      body: JSON.stringify({ displayName: 'Proxy Keeper' }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const write = (method: string, p: string, body: unknown) =>
      fetch(`${api}${p}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-sagan-request': '1', cookie },
        body: JSON.stringify(body),
      });
    const created = await write('POST', '/games', { gameName: 'Through nginx' });
    expect(created.status).toBe(200);
    const { gameKey } = (await created.json()) as { gameKey: string };
    const topic = `game:${gameKey}`;

    // The WebSocket upgrade goes through nginx, to whichever node it picks.
    const viewer = await TestSocket.open(`ws://127.0.0.1:${nginx.port}/apps/sagan/ws`);
    await viewer.subscribe(topic);
    const viewerNode = nodes.findIndex((n) => n.hub.subscriberCount(topic) === 1);
    expect(viewerNode).not.toBe(-1);
    const other = 1 - viewerNode;

    // Round robin, no stickiness: the writes are spread over both nodes.
    const before = served[other]!;
    for (let score = 1; score <= 6; score++) {
      const res = await write('PATCH', `/games/${gameKey}`, { homeScore: score });
      expect(res.status).toBe(200);
      await viewer.waitFor(
        (m): m is Extract<typeof m, { type: 'state' }> =>
          isState(topic)(m) && (m.data as { top: { homeScore: number } }).top.homeScore === score,
      );
    }
    expect(served[other]! - before).toBeGreaterThanOrEqual(2);

    // countScoreboardWatchers through the proxy, from either node: the one viewer.
    const deadline = Date.now() + 8000;
    const counts = new Set<number>();
    while (Date.now() < deadline) {
      const r = await fetch(`${api}/games/${gameKey}/watchers`);
      counts.add(((await r.json()) as { watchers: number }).watchers);
      if (counts.size === 1 && counts.has(1) && served[0]! > 0 && served[1]! > 0) break;
      counts.clear();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect([...counts]).toEqual([1]);
    viewer.close();
  });
});
