import { describe, expect, it } from 'vitest';
import { until } from '../../../../test/until.ts';
import {
  Outbox,
  type Connectivity,
  type DeviceUser,
  type OutboxItem,
  type OutboxRequest,
  type OutboxStore,
  type OutboxStream,
} from './outbox.ts';

// The queue logic against an in-memory store and a small fake of the server's contract
// (idempotency keys, baseSeq and 409): the browser's IndexedDB and the real server are driven
// by the e2e specs.

interface State {
  seq: number;
  value: number;
}
type Intent = { by: number };

const stream = (name = 'counter:1'): OutboxStream<Intent, State> => ({
  name,
  build: (intent, base) =>
    base === null
      ? null
      : {
          method: 'PATCH',
          path: '/counter',
          body: { value: Math.max(0, base.value + intent.by), baseSeq: base.seq },
        },
  stateFrom409: (body) => (body as { state: State }).state,
  seqOf: (s) => s.seq,
  settle: (request, base, answer) => {
    const seq = (answer as { seq: number }).seq;
    const value = (request.body as { value: number }).value;
    return base && base.seq === seq - 1 ? { base: { seq, value } } : { waitFor: seq };
  },
});

function memoryStore(): OutboxStore & { rows: OutboxItem<unknown>[] } {
  const rows: OutboxItem<unknown>[] = [];
  return {
    rows,
    list: (name) => Promise.resolve(rows.filter((r) => r.stream === name).map((r) => ({ ...r }))),
    put: (item) => {
      const at = rows.findIndex((r) => r.id === item.id);
      if (at >= 0) rows[at] = { ...item };
      else rows.push({ ...item });
      return Promise.resolve();
    },
    remove: (id) => {
      const at = rows.findIndex((r) => r.id === id);
      if (at >= 0) rows.splice(at, 1);
      return Promise.resolve();
    },
  };
}

/** A value the test changes, telling whoever listens (the network, who is signed in). */
function switchable<T>(initial: T) {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    onChange: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    set(v: T) {
      current = v;
      for (const l of listeners) l();
    },
  };
}

function switchableNetwork(): Connectivity & { set(online: boolean): void } {
  const online = switchable(true);
  return { ...online, isOnline: online.get };
}

function switchableUser(
  uid: string | null = 'ann',
): DeviceUser & { set(uid: string | null): void } {
  const user = switchable(uid);
  return { ...user, uid: user.get };
}

/** The server side of the contract for one counter. */
function fakeServer() {
  const server = {
    state: { seq: 1, value: 0 } as State,
    effects: 0,
    /** The seq of the last write to `value` (a 409 needs a change to the same field). */
    valueSeq: 1,
    inFlight: 0,
    maxInFlight: 0,
    keys: new Map<string, { body: string; status: number; answer: unknown }>(),
    requests: [] as { key: string; body: unknown }[],
    /** Answers to give before the real one (e.g. a 503, or a lost answer). */
    script: [] as (
      'lost-before' | 'lost-after' | { status: number; retryAfterMs: number | null }
    )[],
    async send(req: OutboxRequest, key: string) {
      server.inFlight++;
      server.maxInFlight = Math.max(server.maxInFlight, server.inFlight);
      await new Promise((r) => setTimeout(r, 1));
      server.inFlight--;
      server.requests.push({ key, body: req.body });
      const step = server.script.shift();
      if (step === 'lost-before') throw new TypeError('Failed to fetch');
      if (step && step !== 'lost-after')
        return { status: step.status, body: {}, retryAfterMs: step.retryAfterMs };
      const body = JSON.stringify(req.body);
      const seen = server.keys.get(key);
      let status: number;
      let answer: unknown;
      if (seen) {
        if (seen.body !== body)
          return { status: 422, body: { error: 'key reused' }, retryAfterMs: null };
        ({ status, answer } = seen);
      } else {
        const { value, baseSeq } = req.body as { value: number; baseSeq: number };
        if (baseSeq < server.valueSeq) {
          status = 409;
          answer = { error: 'conflict', state: { ...server.state } };
        } else {
          server.state = { seq: server.state.seq + 1, value };
          server.valueSeq = server.state.seq;
          server.effects++;
          status = 200;
          answer = { seq: server.state.seq };
        }
        server.keys.set(key, { body, status, answer });
      }
      if (step === 'lost-after') throw new TypeError('Failed to fetch');
      return { status, body: answer, retryAfterMs: null };
    },
    /** Another device's write, as the live topic would show it. */
    otherWrite(value: number): State {
      server.state = { seq: server.state.seq + 1, value };
      server.valueSeq = server.state.seq;
      server.effects++;
      return { ...server.state };
    },
    /** Another device's write to some other field: the seq moves, the value does not. */
    otherField() {
      server.state = { ...server.state, seq: server.state.seq + 1 };
    },
  };
  return server;
}

function setup(
  store = memoryStore(),
  server = fakeServer(),
  network = switchableNetwork(),
  user = switchableUser(),
) {
  const box = new Outbox(stream(), {
    store,
    send: (r, k) => server.send(r, k),
    connectivity: network,
    user,
    settleTimeoutMs: 200,
    random: () => 0,
  });
  box.setBase({ ...server.state });
  return { box, store, server, network, user };
}

describe('Outbox', () => {
  it('sends every tap once, in order, one request at a time, each under its own key', async () => {
    const { box, server, store } = setup();
    await box.ready;
    for (let i = 0; i < 5; i++) box.enqueue({ by: 1 });
    box.enqueue({ by: 3 });
    expect(box.snapshot().items).toHaveLength(6);
    await until(() => box.snapshot().items.length === 0);
    expect(server.state.value).toBe(8);
    expect(server.effects).toBe(6);
    expect(server.maxInFlight).toBe(1);
    expect(new Set(server.requests.map((r) => r.key)).size).toBe(6);
    expect(store.rows).toHaveLength(0);
  });

  it('replays the same request under the same key when an answer is lost: one effect', async () => {
    const { box, server } = setup();
    await box.ready;
    server.script.push('lost-after', 'lost-before');
    box.enqueue({ by: 1 });
    await until(() => box.snapshot().items.length === 0);
    expect(server.effects).toBe(1);
    expect(server.state.value).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => JSON.stringify(r)))).toHaveProperty('size', 1);
  });

  it('rebuilds from the 409 state under a new key, so queued taps all count', async () => {
    const { box, server, network } = setup();
    await box.ready;
    network.set(false);
    for (let i = 0; i < 20; i++) box.enqueue({ by: 1 });
    // Meanwhile another device scored 5; this page has not seen it (no live state).
    server.otherWrite(5);
    expect(box.snapshot().online).toBe(false);
    network.set(true);
    await until(() => box.snapshot().items.length === 0);
    expect(server.state.value).toBe(25);
    const conflicted = server.requests[0]!.key;
    expect(server.requests[1]!.key).toBe(`${conflicted}_1`);
    expect(server.effects).toBe(21);
  });

  it('waits for the live state when a success does not prove the new state', async () => {
    const { box, server } = setup();
    await box.ready;
    server.otherWrite(10);
    box.setBase({ ...server.state });
    // Another write lands between the page's view and its write: seq jumps by two.
    const send = server.send;
    let once = true;
    server.send = async (r, k) => {
      if (once) {
        once = false;
        server.otherField();
      }
      return send(r, k);
    };
    box.enqueue({ by: 1 });
    box.enqueue({ by: 1 });
    await until(() => server.requests.length >= 1);
    await new Promise((r) => setTimeout(r, 50));
    // The second tap waits for a live state at the first's seq rather than build on a guess.
    expect(server.requests).toHaveLength(1);
    box.setBase({ ...server.state });
    await until(() => box.snapshot().items.length === 0);
    expect(server.state.value).toBe(12);
  });

  it('keeps an answered intent in sight until the live state shows its seq', async () => {
    const { box, server } = setup();
    await box.ready;
    box.enqueue({ by: 1 });
    box.enqueue({ by: 2 });
    await until(() => box.snapshot().items.length === 0);
    // Both answered (seqs 2 and 3); the live state is still at 1: the screen still sees them.
    expect(box.snapshot().answered.map((a) => [a.intent, a.seq])).toEqual([
      [{ by: 1 }, 2],
      [{ by: 2 }, 3],
    ]);
    box.setBase({ seq: 2, value: 1 });
    expect(box.snapshot().answered.map((a) => a.seq)).toEqual([3]);
    box.setBase({ ...server.state });
    expect(box.snapshot().answered).toEqual([]);
    // An answer the live state already shows is not kept.
    box.setBase({ seq: 10, value: 3 });
    server.state = { seq: 9, value: 3 };
    box.enqueue({ by: 1 });
    await until(() => box.snapshot().items.length === 0);
    expect(box.snapshot().answered).toEqual([]);
  });

  it('honours Retry-After', async () => {
    const { box, server } = setup();
    await box.ready;
    server.script.push({ status: 429, retryAfterMs: 120 });
    const start = Date.now();
    box.enqueue({ by: 1 });
    await until(() => box.snapshot().items.length === 0);
    expect(Date.now() - start).toBeGreaterThanOrEqual(115);
    expect(server.state.value).toBe(1);
  });

  it('drops an intent the server refuses for good and says why', async () => {
    const { box, server } = setup();
    await box.ready;
    server.script.push({ status: 403, retryAfterMs: null });
    box.enqueue({ by: 1 });
    box.enqueue({ by: 1 });
    await until(() => box.snapshot().items.length === 0);
    expect(box.snapshot().error).toBe('The server refused a change.');
    expect(server.state.value).toBe(1);
  });

  it('sends what was queued before a reload first, with its original key and request', async () => {
    const store = memoryStore();
    const server = fakeServer();
    const network = switchableNetwork();
    network.set(false);
    const first = setup(store, server, network).box;
    await first.ready;
    first.enqueue({ by: 2 });
    await until(() => store.rows.length === 1);
    first.stop();
    const keyBefore = store.rows[0]!.key;

    network.set(true);
    const second = setup(store, server, network).box;
    second.enqueue({ by: 1 });
    await until(() => second.snapshot().items.length === 0);
    expect(server.requests.map((r) => r.key)[0]).toBe(keyBefore);
    expect(server.state.value).toBe(3);
    expect(store.rows).toHaveLength(0);
  });
});

describe('Outbox without a state yet', () => {
  it('keeps intents until the stream has a state to build on', async () => {
    const server = fakeServer();
    const box = new Outbox(
      { ...stream(), needsBase: true },
      {
        store: memoryStore(),
        send: (r, k) => server.send(r, k),
        connectivity: switchableNetwork(),
        user: switchableUser(),
        random: () => 0,
      },
    );
    await box.ready;
    box.enqueue({ by: 1 });
    await new Promise((r) => setTimeout(r, 30));
    expect(server.requests).toHaveLength(0);
    expect(box.snapshot().items).toHaveLength(1);
    box.setBase({ ...server.state });
    await until(() => box.snapshot().items.length === 0);
    expect(server.state.value).toBe(1);
    box.stop();
  });
});

describe('Outbox on a shared device', () => {
  it('sends an intent only as the user who queued it, and when they are back', async () => {
    const { box, server, network, user, store } = setup();
    await box.ready;
    network.set(false);
    box.enqueue({ by: 1 });
    box.enqueue({ by: 1 });
    await until(() => store.rows.length === 2);
    expect(store.rows.map((r) => r.owner)).toEqual(['ann', 'ann']);

    // Bob signs in on the same device: Ann's taps are not his to see or send.
    user.set('bob');
    expect(box.snapshot().items).toHaveLength(0);
    network.set(true);
    box.enqueue({ by: 5 });
    await until(() => box.snapshot().items.length === 0);
    // Ann's were queued first, so without owners they would have gone first.
    expect(server.requests).toHaveLength(1);
    expect(server.state.value).toBe(5);
    expect(store.rows.map((r) => r.owner)).toEqual(['ann', 'ann']);

    // Nobody signed in: still kept.
    user.set(null);
    expect(box.snapshot().items).toHaveLength(0);
    expect(store.rows).toHaveLength(2);

    user.set('ann');
    expect(box.snapshot().items).toHaveLength(2);
    await until(() => store.rows.length === 0);
    expect(server.state.value).toBe(7);
    expect(server.effects).toBe(3);
  });

  it("after a reload under someone else, keeps the first user's queue for them", async () => {
    const store = memoryStore();
    const server = fakeServer();
    const network = switchableNetwork();
    network.set(false);
    const first = setup(store, server, network, switchableUser('ann')).box;
    await first.ready;
    first.enqueue({ by: 2 });
    await until(() => store.rows.length === 1);
    first.stop();

    network.set(true);
    const bob = switchableUser('bob');
    const second = setup(store, server, network, bob).box;
    await second.ready;
    expect(second.snapshot().items).toHaveLength(0);
    second.enqueue({ by: 1 });
    await until(() => second.snapshot().items.length === 0);
    expect(server.state.value).toBe(1);
    expect(store.rows).toHaveLength(1);
    second.stop();

    const third = setup(store, server, network, switchableUser('ann')).box;
    await until(() => store.rows.length === 0);
    expect(server.state.value).toBe(3);
    third.stop();
  });

  it('refuses a tap with nobody signed in rather than queue it for no one', async () => {
    const { box, store, server } = setup(undefined, undefined, undefined, switchableUser(null));
    await box.ready;
    box.enqueue({ by: 1 });
    expect(box.snapshot().items).toHaveLength(0);
    expect(box.snapshot().error).toBe('Sign in again to keep changes.');
    expect(store.rows).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
    box.stop();
  });

  it('takes intents stored before owners were kept as the signed-in user’s', async () => {
    const store = memoryStore();
    await store.put({
      id: 'old',
      stream: 'counter:1',
      intent: { by: 4 },
      key: 'old',
      conflicts: 0,
    });
    const { box, server } = setup(store);
    await until(() => store.rows.length === 0);
    expect(server.state.value).toBe(4);
    box.stop();
  });
});
