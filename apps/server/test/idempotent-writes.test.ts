import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/db.ts';
import { localUid } from '../src/auth/local-uid.ts';
import {
  API,
  databaseKinds,
  newGameOf,
  newTeamWithPlayer,
  type TestUser,
  useTestApp,
} from './helpers.ts';

// The writes on the one write helper (lib/write.ts): team sheets, bookmarks, follows, the
// messages to the scorekeeper, a game's creation, deletion, clock and team sheets, play counts'
// creation and share links, reports, and the operators' moderation (hide, restore, block, a
// notice dismissed). Each is sent under an Idempotency-Key; something else may
// change in between (without a key); the same request again must answer the first answer and
// leave what is stored as it was: a replay that wrote again would add a second row, or put
// back what the change in between had moved.

const OPERATOR = 'Mod';

/** Every signed-in user of the test: the owner (Coach), a viewer (Fan) and an operator. */
type Users = Record<'Coach' | 'Fan' | typeof OPERATOR, TestUser>;

interface Case {
  name: string;
  /** What the write needs (a team, a game...), made fresh for each case. */
  prepare: (u: TestUser, all: Users) => Promise<Record<string, string>>;
  send: (
    u: TestUser,
    ctx: Record<string, string>,
    key: string,
    all: Users,
  ) => Promise<LightMyRequestResponse>;
  /** A change made between the first request and its replay, without a key. */
  between?: (u: TestUser, ctx: Record<string, string>, all: Users) => Promise<unknown>;
  /** What is stored, as the owner reads it (or the database, where no read shows it). */
  state: (u: TestUser, ctx: Record<string, string>, db: Queryable) => Promise<unknown>;
}

const call = (
  u: TestUser,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  payload?: object,
  key?: string,
) =>
  u.request({
    method,
    url: `${API}${url}`,
    ...(payload ? { payload } : {}),
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

const json = async (res: Promise<LightMyRequestResponse>) => {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`${r.statusCode} ${r.body}`);
  return r.json<Record<string, unknown>>();
};

const sheet = (u: TestUser, ctx: Record<string, string>) =>
  json(call(u, 'GET', `/teams/${ctx.teamKey}`));
const teamCount = async (u: TestUser) =>
  ((await json(call(u, 'GET', '/teams'))).mine as unknown[]).length;

const withTeam = async (u: TestUser) => {
  const { teamKey, playerKey } = await newTeamWithPlayer(u);
  return { teamKey, playerKey };
};
const withGroup = async (u: TestUser) => {
  const team = await withTeam(u);
  const group = await json(
    call(u, 'POST', `/teams/${team.teamKey}/groups`, { groupName: 'Offense' }),
  );
  return { teamKey: team.teamKey, playerKey: team.playerKey, groupKey: String(group.groupKey) };
};
const withGame = async (u: TestUser) => ({ gameKey: await newGameOf(u, { gameName: 'Cup' }) });
const withTag = async (u: TestUser) => {
  const { gameKey } = await withGame(u);
  const tags = await json(call(u, 'PUT', `/games/${gameKey}/tags`, { tags: ['replays'] }));
  return { gameKey, tagKey: (tags.tags as { key: string }[])[0]!.key };
};
const myGames = async (u: TestUser) => {
  const r = await call(u, 'GET', '/me/games');
  return r.json<{ gameKey: string }[]>().map((g) => g.gameKey);
};
const storedClock = (db: Queryable, gameKey: string) =>
  db.query(
    `SELECT clock_running, clock_seconds, clock_started_at, clock_direction, clock_limit,
            clock_formatted FROM games WHERE game_key = $1`,
    [gameKey],
  );
const bookmarks = async (u: TestUser) => json(call(u, 'GET', '/me/favorite-scoreboards'));
const withCount = async (u: TestUser) => {
  const { teamKey } = await withTeam(u);
  const made = await json(
    call(u, 'POST', '/playcounts', { teamKey, gameName: 'Saturday', gameDate: '2026-11-28' }),
  );
  return { teamKey, gameKey: String(made.gameKey) };
};
const shareKeyOf = async (u: TestUser, c: Record<string, string>) =>
  (await json(call(u, 'GET', `/playcounts/${c.gameKey}`))).shareKey;
const myCounts = async (u: TestUser) =>
  ((await json(call(u, 'GET', '/playcounts'))).games as unknown[]).length;
/** A moderated row's hidden flag, and how many actions the operators' log holds on it. */
const moderated = (db: Queryable, table: string, where: string, key: string) =>
  db.query(
    `SELECT (SELECT hidden_at IS NOT NULL FROM ${table} WHERE ${where}::text = $1) AS hidden,
            (SELECT count(*)::int FROM moderation_actions WHERE target_key = $1) AS actions`,
    [key],
  );
const admin = (all: Users, url: string, key?: string) =>
  call(all[OPERATOR], 'POST', url, undefined, key);
const followed = async (u: TestUser) => json(call(u, 'GET', '/me/followed-tags'));

/**
 * A PUT that turns something on (a bookmark, a follow, a share link) and the DELETE that turns
 * it off: each is a case, with the other as the change between the request and its replay.
 */
function onAndOff(
  [on, off]: [string, string],
  prepare: Case['prepare'],
  state: Case['state'],
  path: (ctx: Record<string, string>) => string,
): Case[] {
  const put = (u: TestUser, c: Record<string, string>, key?: string) =>
    call(u, 'PUT', path(c), undefined, key);
  const del = (u: TestUser, c: Record<string, string>, key?: string) =>
    call(u, 'DELETE', path(c), undefined, key);
  return [
    { name: on, prepare, send: put, between: (u, c) => json(del(u, c)), state },
    {
      name: off,
      prepare: async (u, all) => {
        const c = await prepare(u, all);
        await json(put(u, c));
        return c;
      },
      send: del,
      between: (u, c) => json(put(u, c)),
      state,
    },
  ];
}

const cases: Case[] = [
  {
    name: 'team create',
    prepare: async () => ({}),
    send: (u, _c, key) => call(u, 'POST', '/teams', undefined, key),
    state: (u) => teamCount(u),
  },
  {
    name: 'team save',
    prepare: withTeam,
    send: (u, c, key) =>
      call(u, 'PATCH', `/teams/${c.teamKey}`, { teamName: 'First', teamNotes: '' }, key),
    between: (u, c) =>
      json(call(u, 'PATCH', `/teams/${c.teamKey}`, { teamName: 'Later', teamNotes: '' })),
    state: sheet,
  },
  {
    name: 'team delete',
    prepare: withTeam,
    send: (u, c, key) => call(u, 'DELETE', `/teams/${c.teamKey}`, undefined, key),
    state: (u) => teamCount(u),
  },
  {
    name: 'player create',
    prepare: withTeam,
    send: (u, c, key) =>
      call(u, 'PUT', `/teams/${c.teamKey}/players/-1`, { jersey: '4', playerName: 'Ada' }, key),
    state: sheet,
  },
  {
    name: 'player save',
    prepare: withTeam,
    send: (u, c, key) =>
      call(
        u,
        'PUT',
        `/teams/${c.teamKey}/players/${c.playerKey}`,
        { jersey: '9', playerName: 'First' },
        key,
      ),
    between: (u, c) =>
      json(
        call(u, 'PUT', `/teams/${c.teamKey}/players/${c.playerKey}`, {
          jersey: '9',
          playerName: 'Later',
        }),
      ),
    state: sheet,
  },
  {
    name: 'player delete',
    prepare: withTeam,
    send: (u, c, key) =>
      call(u, 'DELETE', `/teams/${c.teamKey}/players/${c.playerKey}`, undefined, key),
    state: sheet,
  },
  {
    name: 'bulk upload',
    prepare: withTeam,
    send: (u, c, key) =>
      call(u, 'POST', `/teams/${c.teamKey}/players/bulk`, { text: '1 Ann\n2 Bo' }, key),
    state: sheet,
  },
  {
    name: 'group create',
    prepare: withTeam,
    send: (u, c, key) =>
      call(u, 'POST', `/teams/${c.teamKey}/groups`, { groupName: 'Defense' }, key),
    state: sheet,
  },
  {
    name: 'group rename',
    prepare: withGroup,
    send: (u, c, key) =>
      call(u, 'PATCH', `/teams/${c.teamKey}/groups/${c.groupKey}`, { groupName: 'First' }, key),
    between: (u, c) =>
      json(call(u, 'PATCH', `/teams/${c.teamKey}/groups/${c.groupKey}`, { groupName: 'Later' })),
    state: sheet,
  },
  {
    name: "a player's place in a group",
    prepare: withGroup,
    send: (u, c, key) =>
      call(
        u,
        'PUT',
        `/teams/${c.teamKey}/groups/${c.groupKey}/members/${c.playerKey}`,
        { location: 1 },
        key,
      ),
    between: (u, c) =>
      json(
        call(u, 'PUT', `/teams/${c.teamKey}/groups/${c.groupKey}/members/${c.playerKey}`, {
          location: 2,
        }),
      ),
    state: sheet,
  },
  {
    name: 'privacy',
    prepare: withTeam,
    send: (u, c, key) =>
      call(
        u,
        'PUT',
        `/teams/${c.teamKey}/privacy`,
        { initialsOnly: false, hidePhotos: false, hideNotes: false },
        key,
      ),
    between: (u, c) =>
      json(
        call(u, 'PUT', `/teams/${c.teamKey}/privacy`, {
          initialsOnly: true,
          hidePhotos: true,
          hideNotes: true,
        }),
      ),
    state: (u, c) => json(call(u, 'GET', `/teams/${c.teamKey}/privacy`)),
  },
  {
    name: 'publish',
    prepare: withTeam,
    send: (u, c, key) => call(u, 'POST', `/teams/${c.teamKey}/publish`, undefined, key),
    between: (u, c) => json(call(u, 'DELETE', `/teams/${c.teamKey}/publish`)),
    state: sheet,
  },
  ...onAndOff(
    ['bookmark', 'bookmark removal'],
    withGame,
    bookmarks,
    (c) => `/me/favorite-scoreboards/${c.gameKey}`,
  ),
  ...onAndOff(['follow', 'unfollow'], withTag, followed, (c) => `/me/followed-tags/${c.tagKey}`),
  {
    name: 'comment',
    prepare: withGame,
    send: (u, c, key) =>
      call(
        u,
        'POST',
        `/games/${c.gameKey}/comments`,
        {
          gameComment: 'Half time',
          homeTeamName: 'Lions',
          awayTeamName: 'Bears',
          homeScore: 0,
          awayScore: 0,
          imageURL: '',
        },
        key,
      ),
    state: (u, c) => json(call(u, 'GET', `/games/${c.gameKey}`)),
  },
  {
    name: 'tags',
    prepare: withGame,
    send: (u, c, key) => call(u, 'PUT', `/games/${c.gameKey}/tags`, { tags: ['first'] }, key),
    between: (u, c) => json(call(u, 'PUT', `/games/${c.gameKey}/tags`, { tags: ['later'] })),
    state: (u, c) => json(call(u, 'GET', `/games/${c.gameKey}`)),
  },
  {
    name: 'game create',
    prepare: async () => ({}),
    send: (u, _c, key) => call(u, 'POST', '/games', { gameName: 'Cup' }, key),
    state: myGames,
  },
  {
    name: 'game delete',
    prepare: withGame,
    send: (u, c, key) => call(u, 'DELETE', `/games/${c.gameKey}`, undefined, key),
    state: myGames,
  },
  {
    name: "the phone's clock tick",
    prepare: withGame,
    send: (u, c, key) =>
      call(u, 'POST', `/games/${c.gameKey}/clock`, { formattedTime: '10:00', seconds: 600 }, key),
    between: (u, c) =>
      json(call(u, 'POST', `/games/${c.gameKey}/clock`, { formattedTime: '9:00', seconds: 540 })),
    state: (_u, c, db) => storedClock(db, c.gameKey!),
  },
  {
    name: 'clock start',
    prepare: withGame,
    send: (u, c, key) =>
      call(u, 'POST', `/games/${c.gameKey}/clock/control`, { action: 'start' }, key),
    between: (u, c) =>
      json(call(u, 'POST', `/games/${c.gameKey}/clock/control`, { action: 'stop' })),
    state: (_u, c, db) => storedClock(db, c.gameKey!),
  },
  {
    name: 'clock set',
    prepare: withGame,
    send: (u, c, key) =>
      call(
        u,
        'POST',
        `/games/${c.gameKey}/clock/control`,
        { action: 'set', seconds: 300, direction: 'down', limit: 0 },
        key,
      ),
    between: (u, c) =>
      json(call(u, 'POST', `/games/${c.gameKey}/clock/control`, { action: 'set', seconds: 60 })),
    state: (_u, c, db) => storedClock(db, c.gameKey!),
  },
  {
    name: 'a game sheet linked',
    prepare: async (u) => ({ ...(await withGame(u)), teamKey: (await withTeam(u)).teamKey }),
    send: (u, c, key) =>
      call(u, 'PUT', `/games/${c.gameKey}/sheets/home`, { teamKey: c.teamKey }, key),
    between: (u, c) => json(call(u, 'PUT', `/games/${c.gameKey}/sheets/home`, { teamKey: null })),
    state: (u, c) => json(call(u, 'GET', `/games/${c.gameKey}/sheets`)),
  },
  {
    name: 'a play count started',
    prepare: withTeam,
    send: (u, c, key) =>
      call(
        u,
        'POST',
        '/playcounts',
        { teamKey: c.teamKey, gameName: 'Sunday', gameDate: '2026-11-29' },
        key,
      ),
    state: (u) => myCounts(u),
  },
  ...onAndOff(
    ['a play count shared', "a play count's link revoked"],
    withCount,
    shareKeyOf,
    (c) => `/playcounts/${c.gameKey}/share`,
  ),
  {
    name: 'an operator hides a game',
    prepare: withGame,
    send: (_u, c, key, all) => admin(all, `/admin/games/${c.gameKey}/hide`, key),
    between: (_u, c, all) => json(admin(all, `/admin/games/${c.gameKey}/unhide`)),
    state: (_u, c, db) => moderated(db, 'games', 'game_key', c.gameKey!),
  },
  {
    name: 'an operator hides a comment',
    prepare: async (u) => {
      const { gameKey } = await withGame(u);
      const made = await json(
        call(u, 'POST', `/games/${gameKey}/comments`, { gameComment: 'A rude remark' }),
      );
      return { gameKey, commentId: String(made.id) };
    },
    send: (_u, c, key, all) => admin(all, `/admin/comments/${c.commentId}/hide`, key),
    between: (_u, c, all) => json(admin(all, `/admin/comments/${c.commentId}/unhide`)),
    state: (_u, c, db) => moderated(db, 'game_comments', 'id', c.commentId!),
  },
  {
    name: 'an operator hides a tag',
    prepare: withTag,
    send: (_u, c, key, all) => admin(all, `/admin/tags/${c.tagKey}/hide`, key),
    between: (_u, c, all) => json(admin(all, `/admin/tags/${c.tagKey}/unhide`)),
    state: (_u, c, db) => moderated(db, 'tags', 'tag_key', c.tagKey!),
  },
  {
    name: 'an operator blocks a person',
    prepare: async (_u, all) => ({ uid: all.Fan.uid }),
    send: (_u, c, key, all) => admin(all, `/admin/users/${c.uid}/block`, key),
    between: (_u, c, all) => json(admin(all, `/admin/users/${c.uid}/unblock`)),
    state: (_u, c, db) =>
      db.query(
        `SELECT (SELECT blocked_at IS NOT NULL FROM users WHERE uid = $1) AS blocked,
                (SELECT count(*)::int FROM moderation_actions WHERE target_key = $1) AS actions`,
        [c.uid],
      ),
  },
  {
    name: 'a viewer reports a game',
    prepare: withGame,
    send: (_u, c, key, all) =>
      call(all.Fan, 'POST', `/games/${c.gameKey}/report`, { reason: 'Wrong score' }, key),
    state: (_u, c, db) =>
      db.query('SELECT uid, reason FROM moderation_reports WHERE game_key = $1', [c.gameKey]),
  },
  {
    name: 'a viewer reports a comment',
    prepare: async (u) => {
      const { gameKey } = await withGame(u);
      const made = await json(call(u, 'POST', `/games/${gameKey}/comments`, { gameComment: 'Hm' }));
      return { gameKey, commentId: String(made.id) };
    },
    send: (_u, c, key, all) =>
      call(
        all.Fan,
        'POST',
        `/games/${c.gameKey}/comments/${c.commentId}/report`,
        { reason: 'Rude' },
        key,
      ),
    state: (_u, c, db) =>
      db.query('SELECT uid, reason FROM moderation_comment_reports WHERE comment_id = $1', [
        c.commentId,
      ]),
  },
  {
    name: "an owner dismisses the operators' notice",
    prepare: async (u, all) => {
      const { gameKey } = await withGame(u);
      await json(admin(all, `/admin/games/${gameKey}/hide`));
      const notices = (await call(u, 'GET', '/me/notices')).json<
        { id: string; gameKey: string }[]
      >();
      const notice = notices.find((n) => n.gameKey === gameKey);
      return { gameKey, noticeId: notice!.id };
    },
    send: (u, c, key) => call(u, 'POST', `/me/notices/${c.noticeId}/seen`, undefined, key),
    state: async (u) => (await call(u, 'GET', '/me/notices')).json<unknown>(),
  },
];

describe.each(databaseKinds())('writes on the one write helper on $name', (kind) => {
  const t = useTestApp(kind, {
    users: ['Coach', 'Fan', OPERATOR],
    config: { adminUids: [localUid(OPERATOR)] },
  });

  it.each(cases)('$name: a replayed key answers the first answer and writes once', async (c) => {
    const all = t.users as Users;
    const u = all.Coach;
    const ctx = await c.prepare(u, all);
    const key = `replay-${c.name.replace(/\W+/g, '-')}`;
    const first = await c.send(u, ctx, key, all);
    expect(first.statusCode, first.body).toBeLessThan(300);
    if (c.between) await c.between(u, ctx, all);
    const before = await c.state(u, ctx, t.db);
    const again = await c.send(u, ctx, key, all);
    expect(again.statusCode, again.body).toBeLessThan(300);
    expect(again.json()).toEqual(first.json());
    expect(await c.state(u, ctx, t.db)).toEqual(before);
  });

  it('a message to the scorekeeper under one key arrives once', async () => {
    const gameKey = await newGameOf(t.users.Coach, { gameName: 'Final' });
    const send = () =>
      call(
        t.users.Fan,
        'POST',
        `/games/${gameKey}/scorekeeper-message`,
        { scoreKeeperMessage: 'Lights are off' },
        'msg-1',
      );
    expect((await send()).statusCode).toBe(200);
    expect((await send()).json()).toEqual({ ok: true });
    const messages = async () =>
      (await json(call(t.users.Coach, 'GET', `/games/${gameKey}/messages`))).messages as {
        id: string;
        read: boolean;
      }[];
    const [message, ...more] = await messages();
    expect(more).toHaveLength(0);
    // The owner marks it read under a key, then unread; the replay leaves it unread.
    const mark = (read: boolean, key?: string) =>
      call(t.users.Coach, 'PATCH', `/games/${gameKey}/messages/${message!.id}`, { read }, key);
    const first = await mark(true, 'read-1');
    expect(first.statusCode).toBe(200);
    expect((await mark(false)).statusCode).toBe(200);
    expect((await mark(true, 'read-1')).json()).toEqual(first.json());
    expect((await messages())[0]!.read).toBe(false);
  });

  it("a create answers 201, its replay 200 with the first one's team; createKey maps onto the key", async () => {
    const first = await call(t.users.Coach, 'POST', '/teams', undefined, 'make-team');
    const again = await call(t.users.Coach, 'POST', '/teams', undefined, 'make-team');
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect(again.json()).toEqual(first.json());
    // An older client's createKey is kept in the same table, under its own name.
    const legacy = await call(t.users.Coach, 'POST', '/teams', { createKey: 'make-team' });
    expect(legacy.statusCode).toBe(201);
    expect(legacy.json<{ teamKey: string }>().teamKey).not.toBe(
      first.json<{ teamKey: string }>().teamKey,
    );
    const stored = await t.db.query<{ key: string }>(
      'SELECT key FROM idempotency_keys WHERE uid = $1 ORDER BY key',
      [t.users.Coach.uid],
    );
    expect(stored.map((r) => r.key)).toEqual(
      expect.arrayContaining(['createKey:make-team', 'make-team']),
    );
  });

  it("an editor's saves, each under its own key, land once; a lost answer's retry replays", async () => {
    const u = t.users.Coach;
    const { teamKey } = await withTeam(u);
    const roster = async () =>
      ((await sheet(u, { teamKey })).roster as { playerName: string }[])
        .map((p) => p.playerName)
        .sort();
    const save = (playerKey: string, playerName: string, key: string) =>
      call(u, 'PUT', `/teams/${teamKey}/players/${playerKey}`, { jersey: '7', playerName }, key);
    // Add a player; the answer is lost and the same Save is sent again under its key.
    const made = await save('-1', 'Ann', 'add-1');
    expect(made.statusCode, made.body).toBe(200);
    expect((await save('-1', 'Ann', 'add-1')).json()).toEqual(made.json());
    const playerKey = made.json<{ key: string }>().key;
    // Edit, save, edit again, save: each save has its own key, and each lands.
    expect((await save(playerKey, 'Anna', 'edit-1')).statusCode).toBe(200);
    expect((await save(playerKey, 'Anne', 'edit-2')).statusCode).toBe(200);
    expect(await roster()).toEqual(['Anne', 'Sam Park']);
    // The second edit's key kept by mistake for a third body is refused, and changes nothing.
    expect((await save(playerKey, 'Annie', 'edit-2')).statusCode).toBe(422);
    expect(await roster()).toEqual(['Anne', 'Sam Park']);
  });

  it("an older client's createKey still makes one player, group and upload however often it is sent", async () => {
    const u = t.users.Coach;
    const { teamKey } = await withTeam(u);
    const player = (playerName: string) =>
      call(u, 'PUT', `/teams/${teamKey}/players/-1`, {
        jersey: '3',
        playerName,
        createKey: 'old-player',
      });
    const first = await player('Cy');
    expect(first.statusCode, first.body).toBe(200);
    // Its fingerprint leaves the body out, as the createKey always did: an edited retry too.
    expect((await player('Cyd')).json()).toEqual(first.json());
    const group = () =>
      call(u, 'POST', `/teams/${teamKey}/groups`, { groupName: 'Bench', createKey: 'old-group' });
    const madeGroup = await group();
    expect(madeGroup.statusCode, madeGroup.body).toBe(201);
    expect((await group()).json()).toEqual(madeGroup.json());
    const upload = () =>
      call(u, 'POST', `/teams/${teamKey}/players/bulk`, {
        text: '11 Di\n12 Ed',
        createKey: 'old-bulk',
      });
    const uploaded = await upload();
    expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);
    expect((await upload()).json()).toEqual(uploaded.json());
    const now = await sheet(u, { teamKey });
    expect((now.roster as { playerName: string }[]).map((p) => p.playerName).sort()).toEqual([
      'Cy',
      'Di',
      'Ed',
      'Sam Park',
    ]);
    expect((now.groups as { groupName: string }[]).map((g) => g.groupName)).toEqual(['Bench']);
  });

  it('the same key with another request is refused with 422 and writes nothing', async () => {
    const { teamKey } = await withTeam(t.users.Coach);
    const save = (playerName: string) =>
      call(
        t.users.Coach,
        'PUT',
        `/teams/${teamKey}/players/-1`,
        { jersey: '1', playerName },
        'k-1',
      );
    expect((await save('Ann')).statusCode).toBe(200);
    const other = await save('Bo');
    expect(other.statusCode).toBe(422);
    const roster = (await sheet(t.users.Coach, { teamKey })).roster as { playerName: string }[];
    expect(roster.map((p) => p.playerName).sort()).toEqual(['Ann', 'Sam Park']);
  });

  it("a co-scorer's redemption and removal replayed under their keys change nothing again", async () => {
    const { Coach, Fan } = t.users;
    const gameKey = await newGameOf(Coach, { gameName: 'Derby' });
    const invite = async () =>
      json(call(Coach, 'POST', `/games/${gameKey}/coscorers`)) as Promise<{ token: string }>;
    const panel = async () =>
      (await json(call(Coach, 'GET', `/games/${gameKey}/coscorers`))) as {
        coscorers: { id: string }[];
        invites: { id: string }[];
      };
    const { token } = await invite();
    const redeem = () => call(Fan, 'POST', '/coscorers/redeem', { token }, 'redeem-1');
    const joined = await redeem();
    expect(joined.statusCode, joined.body).toBe(200);
    const [bound] = (await panel()).coscorers;
    const remove = () =>
      call(Coach, 'DELETE', `/games/${gameKey}/coscorers/${bound!.id}`, undefined, 'remove-1');
    const removed = await remove();
    expect(removed.statusCode, removed.body).toBe(200);
    // The redemption replayed after the removal answers as it did and binds no one again.
    const again = await redeem();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(joined.json());
    expect((await panel()).coscorers).toEqual([]);
    // The removal replayed after a new invitation answers as it did and leaves that one.
    await invite();
    const before = await panel();
    expect((await remove()).json()).toEqual(removed.json());
    expect(await panel()).toEqual(before);
    // Another co-scorer's removal under the used key is refused.
    const other = await call(
      Coach,
      'DELETE',
      `/games/${gameKey}/coscorers/${before.invites[0]!.id}`,
      undefined,
      'remove-1',
    );
    expect(other.statusCode).toBe(422);
    expect(await panel()).toEqual(before);
  });

  it('a game write under a used key with another body is refused with 422 and writes nothing', async () => {
    const u = t.users.Coach;
    const before = await myGames(u);
    const made = await call(u, 'POST', '/games', { gameName: 'Cup' }, 'game-1');
    expect(made.statusCode).toBe(200);
    const other = await call(u, 'POST', '/games', { gameName: 'Final' }, 'game-1');
    expect(other.statusCode).toBe(422);
    const added = (await myGames(u)).filter((k) => !before.includes(k));
    expect(added).toEqual([made.json<{ gameKey: string }>().gameKey]);
    const { gameKey } = made.json<{ gameKey: string }>();
    const tick = (seconds: number) =>
      call(
        u,
        'POST',
        `/games/${gameKey}/clock`,
        { formattedTime: `${seconds}`, seconds },
        'tick-1',
      );
    expect((await tick(600)).statusCode).toBe(200);
    expect((await tick(540)).statusCode).toBe(422);
    expect((await storedClock(t.db, gameKey))[0]).toMatchObject({ clock_seconds: 600 });
  });

  it("an operator's key used again on another game, or a sheet's with another team, is refused with 422 and writes nothing", async () => {
    const all = t.users as Users;
    const [one, two] = [await withGame(all.Coach), await withGame(all.Coach)];
    expect((await admin(all, `/admin/games/${one.gameKey}/hide`, 'mod-1')).statusCode).toBe(200);
    const before = await moderated(t.db, 'games', 'game_key', two.gameKey);
    const other = await admin(all, `/admin/games/${two.gameKey}/hide`, 'mod-1');
    expect(other.statusCode, other.body).toBe(422);
    expect(await moderated(t.db, 'games', 'game_key', two.gameKey)).toEqual(before);
    expect(before).toEqual([{ hidden: false, actions: 0 }]);

    const { teamKey } = await withTeam(all.Coach);
    const link = (body: { teamKey: string | null }) =>
      call(all.Coach, 'PUT', `/games/${one.gameKey}/sheets/away`, body, 'sheet-1');
    expect((await link({ teamKey })).statusCode).toBe(200);
    const linked = await json(call(all.Coach, 'GET', `/games/${one.gameKey}/sheets`));
    expect((await link({ teamKey: null })).statusCode).toBe(422);
    expect(await json(call(all.Coach, 'GET', `/games/${one.gameKey}/sheets`))).toEqual(linked);
    expect(linked.away).toMatchObject({ teamKey });
  });

  it("a refused write is not kept: the owner's key is no answer for another user", async () => {
    const { teamKey } = await withTeam(t.users.Coach);
    const peek = await call(t.users.Fan, 'DELETE', `/teams/${teamKey}`, undefined, 'del-1');
    expect(peek.statusCode).toBe(404);
    expect(
      (await call(t.users.Coach, 'DELETE', `/teams/${teamKey}`, undefined, 'del-1')).statusCode,
    ).toBe(200);
    expect(
      (await call(t.users.Fan, 'DELETE', `/teams/${teamKey}`, undefined, 'del-1')).statusCode,
    ).toBe(404);
  });
});
