// The web realtime client taking over a server-rendered page (docs/decisions/0013): seeded with
// the state the page was rendered with, it resumes from that sequence number instead of
// fetching the state again, and goes on live.
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, until, useTestApp } from '../apps/server/test/helpers.ts';
import { createProbeTable, registerProbeTopic, setProbe } from '../apps/server/test/probe-topic.ts';
import { useWebRealtime } from './web-realtime.ts';

const kind = databaseKinds()[0]!;

describe('realtime client seeded from a server-rendered page', () => {
  const t = useTestApp(kind, { listen: true, beforeBuild: createProbeTable });
  const openClient = useWebRealtime();
  beforeAll(() => registerProbeTopic(t.app));

  it('shows the seeded state at once, is not sent it again, and then goes on live', async () => {
    await setProbe(t.app, 'a', 1);
    const rendered = await t.app.hub.current('probe:a');
    const client = openClient(() => t.wsUrl);
    client.seed({ topic: 'probe:a', ...rendered });
    expect(client.snapshot('probe:a')).toMatchObject({ received: true, data: { v: 1 } });

    let calls = 0;
    const unsubscribe = client.subscribe('probe:a', () => calls++);
    await until(() => t.app.hub.subscriberCount('probe:a') === 1);
    // Resumed with sinceSeq: the server answered `current`, so nothing was delivered.
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(0);

    await setProbe(t.app, 'a', 2);
    await until(() => calls === 1);
    expect(client.snapshot('probe:a')?.data).toEqual({ v: 2 });
    unsubscribe();
  });

  it('a page rendered before a write catches up as soon as it subscribes', async () => {
    await setProbe(t.app, 'b', 1);
    const rendered = await t.app.hub.current('probe:b');
    await setProbe(t.app, 'b', 2);
    const client = openClient(() => t.wsUrl);
    client.seed({ topic: 'probe:b', ...rendered });
    let calls = 0;
    const unsubscribe = client.subscribe('probe:b', () => calls++);
    await until(() => calls === 1);
    expect(client.snapshot('probe:b')?.data).toEqual({ v: 2 });
    unsubscribe();
  });

  it('a seed never overwrites a topic the client already holds', () => {
    const client = openClient(() => t.wsUrl);
    client.seed({ topic: 'probe:c', seq: 5, data: { v: 5 } });
    client.seed({ topic: 'probe:c', seq: 1, data: { v: 1 } });
    expect(client.snapshot('probe:c')?.data).toEqual({ v: 5 });
  });
});
