import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { Db, Queryable } from '../src/db/db.ts';
import { API, signInLocal, type TestUser } from './helpers.ts';
import { sampleGame } from './playcounts-fixtures.ts';

/**
 * One owner with one of everything (game with tag and comment, team with player, photo, group
 * and published copy, play count) and a second signed-in user: what the security suites
 * attack. Each call makes a fresh world, so a cell that changes or deletes something never
 * spoils the next one.
 */
export interface World {
  owner: TestUser;
  other: TestUser;
  /** A co-scorer of the game and of the sideline count (DESIGN §10). */
  scorer: TestUser;
  gameKey: string;
  tagKey: string;
  /** The game's comment. */
  commentId: string;
  teamKey: string;
  playerKey: string;
  groupKey: string;
  publishedAsKey: string;
  playCountKey: string;
  /** The play count's player whose photo is the team player's. */
  playCountPlayer: string;
  /** A message the other user sent the game's scorekeeper. */
  messageId: string;
  /** A play count started from the team sheet (its player has the photo), shared by link. */
  sidelineKey: string;
  shareKey: string;
  /** A notice to the owner that an operator hid (here: restored) their game, not dismissed. */
  noticeId: string;
}

export const randomKey = () => crypto.randomBytes(15).toString('base64url');

export async function tinyPng(): Promise<Buffer> {
  return sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
}

async function ok<T>(
  res: { statusCode: number; body: string; json(): unknown },
  what: string,
): Promise<T> {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

let worlds = 0;

export async function makeWorld(app: FastifyInstance): Promise<World> {
  const n = ++worlds;
  const owner = await signInLocal(app, `Owner ${n} ${randomKey()}`);
  const other = await signInLocal(app, `Other ${n} ${randomKey()}`);
  const scorer = await signInLocal(app, `Scorer ${n} ${randomKey()}`);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    owner.request({ method, url: `${API}${url}`, ...(payload === undefined ? {} : { payload }) });

  const { gameKey } = await ok<{ gameKey: string }>(
    await call('POST', '/games', { gameName: `Game ${n}`, homeTeamName: 'Home' }),
    'create game',
  );
  const { tags } = await ok<{ tags: { key: string }[] }>(
    await call('PUT', `/games/${gameKey}/tags`, { tags: [`world${n}x${randomKey().slice(0, 6)}`] }),
    'tags',
  );
  const { id: commentId } = await ok<{ id: string }>(
    await call('POST', `/games/${gameKey}/comments`, { gameComment: 'Kick-off' }),
    'comment',
  );
  await ok(
    await other.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/scorekeeper-message`,
      payload: { scoreKeeperMessage: 'Score please' },
    }),
    'message',
  );
  const { messages } = await ok<{ messages: { id: string }[] }>(
    await call('GET', `/games/${gameKey}/messages`),
    'messages',
  );
  const { teamKey } = await ok<{ teamKey: string }>(await call('POST', '/teams'), 'team');
  const player = await ok<{ key?: string; playerKey?: string }>(
    await call('PUT', `/teams/${teamKey}/players/-1`, {
      jersey: '7',
      playerName: 'Ann Lee',
      playerNotes: '',
    }),
    'player',
  );
  const playerKey = (player.playerKey ?? player.key)!;
  const withPhoto = await ok<{ imageURL: string }>(
    await owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${playerKey}/photo`,
      headers: { 'content-type': 'image/png' },
      payload: await tinyPng(),
    }),
    'photo',
  );
  const { groupKey } = await ok<{ groupKey: string }>(
    await call('POST', `/teams/${teamKey}/groups`, { groupName: 'Offense' }),
    'group',
  );
  const { publishedAsKey } = await ok<{ publishedAsKey: string }>(
    await call('POST', `/teams/${teamKey}/publish`),
    'publish',
  );
  const playCountKey = `pc_${randomKey()}`;
  const game = sampleGame();
  const roster = game.roster as { key: string; imageURL?: string }[];
  roster[0]!.imageURL = withPhoto.imageURL;
  await ok(await call('PUT', `/playcounts/${playCountKey}`, game), 'play count');
  const { gameKey: sidelineKey } = await ok<{ gameKey: string }>(
    await call('POST', '/playcounts', { teamKey, gameName: 'Sideline', gameDate: '2026-09-05' }),
    'sideline count',
  );
  const { shareKey } = await ok<{ shareKey: string }>(
    await call('PUT', `/playcounts/${sidelineKey}/share`),
    'share',
  );
  for (const path of [`/games/${gameKey}`, `/playcounts/${sidelineKey}`]) {
    const { token } = await ok<{ token: string }>(
      await call('POST', `${path}/coscorers`),
      'invite',
    );
    await ok(
      await scorer.request({
        method: 'POST',
        url: `${API}/coscorers/redeem`,
        payload: { token },
      }),
      'redeem',
    );
  }
  // No operator is configured here: the operator's action is written as the route writes it.
  const [notice] = await app.db.query<{ id: string | number }>(
    `INSERT INTO moderation_actions (admin_uid, action, game_key, owner_uid, game_name)
     VALUES ('operator', 'unhide', $1, $2, $3) RETURNING id`,
    [gameKey, owner.uid, `Game ${n}`],
  );
  return {
    owner,
    other,
    scorer,
    gameKey,
    tagKey: tags[0]!.key,
    commentId,
    teamKey,
    playerKey,
    groupKey,
    publishedAsKey,
    playCountKey,
    playCountPlayer: roster[0]!.key,
    messageId: messages[0]!.id,
    sidelineKey,
    shareKey,
    noticeId: String(notice!.id),
  };
}

/**
 * Rows the server writes on its own schedule, not because of a request: each node's heartbeat
 * and watcher counts (every second), and the sequence numbers of coalesced aggregate topics
 * (numbered up to an interval after the write that marked them, so an earlier cell's write may
 * land during a later one). Null leaves the table out; a condition keeps only the rows it matches.
 */
export const BACKGROUND_WRITES: Record<string, string | null> = {
  node_watchers: null,
  nodes: null,
  // The write limits count refused requests too: a counter, not data anyone wrote.
  write_limit_windows: null,
  topic_seq: 'flushed_at IS NULL',
};

/** How tableVersions reads each database, prepared once (the table list is in the statement). */
const versionReaders = new WeakMap<Db, Promise<(q: Queryable) => Promise<string>>>();
let readerNames = 0;

/**
 * One line per table (BACKGROUND_WRITES' rows aside): how many rows it holds and the newest row
 * version's transaction id. Equal answers mean no row was inserted, updated or deleted between
 * them: an insert or an update writes a row version stamped with its transaction's id (xmin),
 * and a transaction that begins writing after this statement has run has an id above every
 * version the statement saw, so the newest id moves even when a row is rewritten as it was; a
 * delete lowers the count, and an insert that makes up for it leaves a newer version. A new
 * table changes the first line. Nothing is read but row headers, and the statement is planned
 * once: the security suites ask this after thousands of requests, and turning every row into
 * text and sorting it, and planning a statement of a subquery a table each time, were most of
 * their time. `q` reads it inside one of db's transactions.
 */
export async function tableVersions(db: Db, q: Queryable = db): Promise<string> {
  let reader = versionReaders.get(db);
  if (!reader) {
    reader = versionReader(db);
    versionReaders.set(db, reader);
  }
  return (await reader)(q);
}

async function versionReader(db: Db): Promise<(q: Queryable) => Promise<string>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const lines = tables
    .map((t) => t.table_name)
    .filter((name) => !(name in BACKGROUND_WRITES && BACKGROUND_WRITES[name] === null))
    .map(
      (name) =>
        `(SELECT '${name}: ' || count(*) || ' rows, newest by transaction '
                 || coalesce(max(xmin::text::bigint), 0)
          FROM "${name}" WHERE ${BACKGROUND_WRITES[name] ?? 'true'})`,
    );
  // All tables in one statement, which also reads them all as of one moment.
  const statement = `SELECT concat_ws($1::text,
      'tables: ' || (SELECT count(*) FROM pg_class
                     WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')),
      ${lines.join(',\n      ')}) AS versions`;
  const read = async (q: Queryable, sql: string, params?: unknown[]) =>
    (await q.query<{ versions: string }>(sql, params))[0]!.versions;
  // On PostgreSQL a statement with parameters is prepared once per connection (db.ts); PGlite
  // prepares what it is told to, in its one session.
  if (db.kind === 'postgres') return (q) => read(q, statement, ['\n']);
  const name = `table_versions_${++readerNames}`;
  await db.query(`PREPARE ${name}(text) AS ${statement}`);
  return (q) => read(q, `EXECUTE ${name}(E'\\n')`);
}

/**
 * The route table as Fastify holds it, parsed from printRoutes(): `METHOD /full/path` for each
 * route (HEAD, which Fastify adds beside every GET, is left out).
 */
export function routeTable(app: FastifyInstance): string[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of lines) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const full = (depth ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = full;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (method && method !== 'HEAD') routes.push(`${method} ${full}`);
    }
  }
  return [...new Set(routes)].sort();
}
