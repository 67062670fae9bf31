import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  buildTestApp,
  databaseKinds,
  listenWs,
  postgresKindIfAny,
  signInLocal,
  useTestApp,
  useTwoNodes,
} from './helpers.ts';
import { createProbeTable, registerProbeTopic, setProbe } from './probe-topic.ts';
import { isState, type StateMessage, TestSocket } from './ws-client.ts';

// The hub through the probe topic, whose keys starting private- are Owner's alone.
const withProbeTopic = (app: FastifyInstance) =>
  registerProbeTopic(
    app,
    (user, arg) => !arg.startsWith('private-') || user?.displayName === 'Owner',
  );

describe.each(databaseKinds())('realtime on $name', (kind) => {
  let url: string;

  const t = useTestApp(kind, { beforeBuild: createProbeTable });
  beforeAll(async () => {
    await withProbeTopic(t.app);
    url = await listenWs(t.app);
  });

  it('sends the current state on subscribe, then every change with a rising sequence number', async () => {
    await setProbe(t.app, 'a', 1);
    const ws = await TestSocket.open(url);
    const first = await ws.subscribe('probe:a');
    expect(first.data).toEqual({ v: 1 });
    await setProbe(t.app, 'a', 2);
    const second = await ws.waitFor(isState('probe:a'), 1);
    expect(second.data).toEqual({ v: 2 });
    expect(second.seq).toBe(first.seq + 1);
    ws.close();
  });

  it('resumes after a dropped connection with the newest state, no gap and no repeat', async () => {
    await setProbe(t.app, 'r', 10);
    const ws = await TestSocket.open(url);
    const seen = await ws.subscribe('probe:r');
    ws.ws.terminate(); // a dropped network, not a polite close
    await ws.waitClosed();
    await setProbe(t.app, 'r', 11);
    await setProbe(t.app, 'r', 12);

    const again = await TestSocket.open(url);
    again.send({ type: 'subscribe', topic: 'probe:r', sinceSeq: seen.seq });
    const resumed = await again.waitFor(isState('probe:r'));
    expect(resumed.data).toEqual({ v: 12 });
    expect(resumed.seq).toBe(seen.seq + 2);
    // Nothing older is replayed after it: the next change is the next thing this socket hears
    // on the topic (a socket's frames arrive in order, so a replay would come before it).
    await setProbe(t.app, 'r', 13);
    const latest = await again.waitFor(
      (m): m is StateMessage => isState('probe:r')(m) && (m.data as { v: number }).v === 13,
    );
    const states = again.messages.filter((m) => m.type === 'state');
    expect(states.map((m) => (m.data as { v: number }).v)).toEqual([12, 13]);

    // A client that is already current is told so instead of being sent the state again.
    const third = await TestSocket.open(url);
    third.send({ type: 'subscribe', topic: 'probe:r', sinceSeq: latest.seq });
    const current = await third.waitFor(
      (m): m is Extract<typeof m, { type: 'current' }> => m.type === 'current',
    );
    expect(current.seq).toBe(latest.seq);
    expect(third.messages.filter((m) => m.type === 'state')).toHaveLength(0);
    again.close();
    third.close();
  });

  it('reads the database once per change per node, however many viewers', async () => {
    await setProbe(t.app, 'fan', 0);
    const viewers = await Promise.all(Array.from({ length: 25 }, () => TestSocket.open(url)));
    for (const v of viewers) v.send({ type: 'subscribe', topic: 'probe:fan' });
    await Promise.all(viewers.map((v) => v.waitFor(isState('probe:fan'))));
    const loadsBefore = t.app.hub.loads;
    await setProbe(t.app, 'fan', 1);
    await Promise.all(viewers.map((v) => v.waitFor(isState('probe:fan'), 1)));
    expect(t.app.hub.loads - loadsBefore).toBe(1);
    viewers.forEach((v) => v.close());
  });

  it('refuses a topic the user may not see, and unknown topics', async () => {
    const ws = await TestSocket.open(url);
    ws.send({ type: 'subscribe', topic: 'probe:private-x' });
    const denied = await ws.waitFor(
      (m): m is Extract<typeof m, { type: 'error' }> => m.type === 'error',
    );
    expect(denied.message).toMatch(/access/);
    ws.send({ type: 'subscribe', topic: 'nosuch:thing' });
    const unknown = await ws.waitFor(
      (m): m is Extract<typeof m, { type: 'error' }> =>
        m.type === 'error' && m.message === 'Unknown topic',
    );
    expect(unknown.topic).toBe('nosuch:thing');
    ws.close();

    const owner = await signInLocal(t.app, 'Owner');
    await setProbe(t.app, 'private-x', 7);
    const mine = await TestSocket.open(url, { cookie: owner.cookie });
    expect((await mine.subscribe('probe:private-x')).data).toEqual({ v: 7 });
    mine.close();
  });

  it('refuses a foreign Origin at the handshake', async () => {
    await expect(TestSocket.open(url, { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const own = await TestSocket.open(url, {
      origin: url.replace('ws://', 'http://').replace(/\/apps.*/, ''),
    });
    own.close();
  });

  it('closes a connection that sends a frame over 64 KiB, and answers junk with an error', async () => {
    const ws = await TestSocket.open(url);
    ws.ws.send('not json');
    await ws.waitFor((m): m is Extract<typeof m, { type: 'error' }> => m.type === 'error');
    ws.ws.send(JSON.stringify({ type: 'subscribe', topic: 'probe:a', pad: 'x'.repeat(70 * 1024) }));
    const closed = await ws.waitClosed();
    expect(closed.code).toBe(1009); // message too big
    // The server is unharmed.
    const next = await TestSocket.open(url);
    next.send({ type: 'ping' });
    await next.waitFor((m): m is Extract<typeof m, { type: 'pong' }> => m.type === 'pong');
    next.close();
  });

  it('tells viewers to reconnect when the server shuts down', async () => {
    const other = await buildTestApp(t.db);
    const otherUrl = await listenWs(other);
    const ws = await TestSocket.open(otherUrl);
    const closing = other.close();
    const hint = await ws.waitFor(
      (m): m is Extract<typeof m, { type: 'reconnect' }> => m.type === 'reconnect',
    );
    expect(hint.afterMs).toBeGreaterThan(0);
    await closing;
  });
});

const postgres = postgresKindIfAny();

describe.runIf(postgres)('two server nodes on one PostgreSQL database', () => {
  const t = useTwoNodes(postgres, { beforeBuild: createProbeTable, onNode: withProbeTopic });

  it('a write on node A reaches a viewer on node B through LISTEN/NOTIFY', async () => {
    await setProbe(t.nodeA, 'x', 1);
    const viewer = await TestSocket.open(t.urlB);
    const first = await viewer.subscribe('probe:x');
    expect(first.data).toEqual({ v: 1 });
    for (let v = 2; v <= 5; v++) await setProbe(t.nodeA, 'x', v);
    // Changes may coalesce, but the viewer ends at the newest state with its number.
    await viewer.waitFor(
      (m): m is Extract<typeof m, { type: 'state' }> =>
        m.type === 'state' && (m.data as { v: number }).v === 5,
    );
    const states = viewer.messages.filter((m) => m.type === 'state');
    const seqs = states.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.at(-1)).toBe(first.seq + 4);
    viewer.close();
  });

  it('a write rolled back on node A notifies nobody', async () => {
    await setProbe(t.nodeA, 'rb', 1);
    const viewer = await TestSocket.open(t.urlB);
    await viewer.subscribe('probe:rb');
    await expect(
      t.nodeA.db.tx(async (q) => {
        await q.query('UPDATE probe_values SET v = 99 WHERE k = $1', ['rb']);
        await t.nodeA.hub.changed(q, ['probe:rb']);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // A committed change after the rollback is heard; had the rolled-back one been sent, it
    // would have arrived before it (one notification channel, frames in order).
    await setProbe(t.nodeA, 'rb', 2);
    await viewer.waitFor(
      (m): m is StateMessage => isState('probe:rb')(m) && (m.data as { v: number }).v === 2,
    );
    const states = viewer.messages.filter((m) => m.type === 'state');
    expect(states.map((m) => (m.data as { v: number }).v)).toEqual([1, 2]);
    viewer.close();
  });
});
