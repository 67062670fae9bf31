import { describe, expect, it } from 'vitest';
import { gameTopic } from '@sagan/shared/topics/game';
import { API, anonymous, databaseKinds, until, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** A sample's value in Prometheus text ("name{labels} value"), or undefined if absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(databaseKinds())('/metrics ($name)', (kind) => {
  const t = useTestApp(kind, {
    users: ['Scorer'],
    listen: true,
    config: { metricsToken: TOKEN },
  });
  const scrape = async (authorization?: string) =>
    anonymous(t.app)({
      method: 'GET',
      url: '/metrics',
      headers: authorization ? { authorization } : {},
    });

  it('is 404 to anyone without the bearer token', async () => {
    for (const auth of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await scrape(auth);
      expect(res.statusCode, String(auth)).toBe(404);
      expect(res.body).not.toContain('sagan_');
    }
  });

  it('counts sockets, subscriptions, writes, fan-out, the pool, LISTEN and backups', async () => {
    const scorer = t.users.Scorer;
    const created = await scorer.request({ method: 'POST', url: `${API}/games`, payload: {} });
    expect(created.statusCode, created.body).toBe(200);
    const { gameKey } = created.json<{ gameKey: string }>();
    const before = await scrape(`Bearer ${TOKEN}`);
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const writesBefore = sample(before.body, 'sagan_writes_total')!;
    expect(writesBefore).toBeGreaterThanOrEqual(1);
    expect(sample(before.body, 'sagan_websocket_connections')).toBe(0);

    const viewer = await TestSocket.open(t.wsUrl);
    const topic = gameTopic.name(gameKey);
    await viewer.subscribe(topic);
    const patched = await scorer.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { homeScore: 3 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await viewer.stateShowing(topic, (d: { top: { homeScore: number } }) => d.top.homeScore === 3);
    // The frame reached the viewer; the observation follows its write on the server.
    let text = '';
    await until(async () => {
      text = (await scrape(`Bearer ${TOKEN}`)).body;
      return (sample(text, 'sagan_fanout_seconds_count') ?? 0) >= 1;
    });
    expect(sample(text, 'sagan_websocket_connections')).toBe(1);
    expect(sample(text, 'sagan_subscriptions{family="game"}')).toBe(1);
    expect(sample(text, 'sagan_writes_total')).toBe(writesBefore + 1);
    expect(sample(text, 'sagan_listen_reconnects')).toBe(0);
    expect(sample(text, 'sagan_listen_up')).toBe(1);
    expect(sample(text, 'sagan_backups_total{result="ok"}')).toBe(0);
    // A refused write is not a write.
    const refused = await anonymous(t.app)({ method: 'POST', url: `${API}/games`, payload: {} });
    expect(refused.statusCode).toBe(401);
    text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(sample(text, 'sagan_writes_total')).toBe(writesBefore + 1);
    if (kind.name === 'postgres') {
      expect(sample(text, 'sagan_db_pool_clients{state="total"}')).toBeGreaterThanOrEqual(1);
    } else {
      expect(text).not.toContain('sagan_db_pool_clients{');
    }
    viewer.ws.close();
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  const t = useTestApp(databaseKinds()[0]!);
  it('does not exist, whatever the caller sends', async () => {
    const res = await anonymous(t.app)({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer ' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('sagan_');
  });
});
