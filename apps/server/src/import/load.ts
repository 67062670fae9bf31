import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameTopic } from '@sagan/shared/topics/game';
import { playCountTopic } from '@sagan/shared/topics/playcount';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { rosterTopic } from '@sagan/shared/topics/roster';
import { tagTopic } from '@sagan/shared/topics/tag';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { teamTopic } from '@sagan/shared/topics/team';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { myPlayCountsTopic } from '@sagan/shared/topics/user-playcounts';
import type { Queryable } from '../db/db.ts';
import { appendBaseline } from '../lib/game-write.ts';
import { applyChange, type ChangeWriter } from '../lib/write.ts';
import type { ImportPlan, Problem } from './read-export.ts';
import type { PlayCountRosterEntry, Snap } from '@sagan/shared/playcount';
import { appendEvents } from '../routes/playcounts/events.ts';

// Writes an ImportPlan into the tables the features read (db/migrations/0001_core.sql).
// Every statement is an upsert that changes a row only when it differs from the export, so a
// second run of the same export changes nothing and counts everything as unchanged.

type Outcome = 'created' | 'updated' | 'unchanged';
export type Kind =
  | 'users'
  | 'tags'
  | 'games'
  | 'comments'
  | 'gameTags'
  | 'favoriteScoreboards'
  | 'followedTags'
  | 'teams'
  | 'rosters'
  | 'favoriteRosters'
  | 'playCounts';

export type Summary = Record<Kind, Record<Outcome, number>>;

export interface LoadResult {
  summary: Summary;
  /** Records the database refused (e.g. a key already used by another owner). */
  problems: Problem[];
}

interface Step {
  kind: Kind;
  path: string;
  run(q: Queryable): Promise<{ outcome: Outcome; topics: string[] }>;
}

const J = JSON.stringify;

/** A value stored in a jsonb column. */
class Jsonb {
  constructor(readonly value: unknown) {}
}

/**
 * One record of the export as a row of `table`: inserted under `key`, or else its `set`
 * columns updated where they differ from the export, so a second run of the same export
 * writes nothing. `fixed` columns are written once and must match for an update (a key
 * another owner holds is not taken over); `touch` stamps `updated_at` on a change.
 */
interface Row {
  table: string;
  key: Record<string, unknown>;
  fixed?: Record<string, unknown>;
  set?: Record<string, unknown>;
  touch?: boolean;
}

/** `created` when the RETURNING (xmax = 0) of an upsert says it inserted a row. */
function outcomeOf(rows: { created: boolean }[]): Outcome {
  if (!rows.length) return 'unchanged';
  return rows.some((r) => r.created) ? 'created' : 'updated';
}

async function upsert(q: Queryable, { table, key, fixed = {}, set = {}, touch }: Row) {
  const all = Object.entries({ ...key, ...fixed, ...set });
  const values = all.map(([, v], i) => (v instanceof Jsonb ? `$${i + 1}::jsonb` : `$${i + 1}`));
  const changed = Object.keys(set);
  const list = (prefix: string) => changed.map((c) => prefix + c).join(', ');
  const update = [
    ...changed.map((c) => `${c} = EXCLUDED.${c}`),
    ...(touch ? ['updated_at = now()'] : []),
  ];
  const when = [
    ...Object.keys(fixed).map((c) => `r.${c} = EXCLUDED.${c}`),
    `(${list('r.')}) IS DISTINCT FROM (${list('EXCLUDED.')})`,
  ];
  const rows = await q.query<{ created: boolean }>(
    `INSERT INTO ${table} AS r (${all.map(([c]) => c).join(', ')}) VALUES (${values.join(', ')})
     ON CONFLICT (${Object.keys(key).join(', ')})
     ${changed.length ? `DO UPDATE SET ${update.join(', ')} WHERE ${when.join(' AND ')}` : 'DO NOTHING'}
     RETURNING (xmax = 0) AS created`,
    all.map(([, v]) => (v instanceof Jsonb ? J(v.value) : v)),
  );
  return outcomeOf(rows);
}

/** The steps of records that are one row each, announced to `topics` when they change. */
function rowSteps<T>(
  kind: Kind,
  records: T[],
  each: (record: T) => { path: string; row: Row; topics: string[] },
): Step[] {
  return records.map((record) => {
    const { path, row, topics } = each(record);
    return { kind, path, run: async (q) => ({ outcome: await upsert(q, row), topics }) };
  });
}

function steps(plan: ImportPlan): Step[] {
  const p = plan.product;
  const out: Step[] = [];
  for (const u of plan.users) {
    out.push({
      kind: 'users',
      path: `users/${u.uid}`,
      // A user who has signed in to Sagan since keeps what Sagan knows (name, last login).
      run: async (q) => ({
        outcome: outcomeOf(
          await q.query<{ created: boolean }>(
            `INSERT INTO users AS u (uid, display_name, email, last_login) VALUES ($1, $2, $3, $4)
             ON CONFLICT (uid) DO UPDATE SET
               display_name = COALESCE(u.display_name, EXCLUDED.display_name),
               email = COALESCE(u.email, EXCLUDED.email),
               last_login = COALESCE(u.last_login, EXCLUDED.last_login)
             WHERE (u.display_name IS NULL AND EXCLUDED.display_name IS NOT NULL)
                OR (u.email IS NULL AND EXCLUDED.email IS NOT NULL)
                OR (u.last_login IS NULL AND EXCLUDED.last_login IS NOT NULL)
             RETURNING (xmax = 0) AS created`,
            [u.uid, u.displayName, u.email, u.lastLogin],
          ),
        ),
        topics: [],
      }),
    });
  }
  out.push(
    ...rowSteps('tags', plan.tags, (t) => ({
      path: `${p}/tags/${t.tagKey}`,
      row: {
        table: 'tags',
        key: { tag_key: t.tagKey },
        set: {
          name: t.name,
          name_lower: t.name.toLowerCase(),
          server_time_stamp: t.serverTimeStamp,
        },
      },
      topics: [tagsTopic.name(), tagTopic.name(t.tagKey)],
    })),
  );
  for (const g of plan.games) {
    out.push({
      kind: 'games',
      path: `${p}/games/${g.gameKey}/top`,
      async run(q) {
        const outcome = await upsert(q, {
          table: 'games',
          key: { game_key: g.gameKey },
          fixed: { uid: g.uid },
          set: { fields: new Jsonb(g.fields), time_stamp: g.timeStamp },
        });
        if (outcome === 'unchanged') await sameOwner(q, 'games', 'game_key', g.gameKey, g.uid);
        // DESIGN §10: the imported state is the log's baseline (a re-import with other
        // values starts the fold again from it).
        else await appendBaseline(q, g.gameKey, g.uid, g.fields, `baseline_import_${g.timeStamp}`);
        return {
          outcome,
          topics: [
            gameTopic.name(g.gameKey),
            gameDetailTopic.name(g.gameKey),
            recentGamesTopic.name(),
            myGamesTopic.name(g.uid),
          ],
        };
      },
    });
  }
  for (const c of plan.comments) {
    out.push({
      kind: 'comments',
      path: `${p}/games/${c.gameKey}/comments/${c.importKey}`,
      async run(q) {
        const rows = await q.query(
          `INSERT INTO game_comments (game_key, comment)
           SELECT $1, $3::jsonb WHERE NOT EXISTS (
             SELECT 1 FROM game_comments WHERE game_key = $1 AND comment->>'importKey' = $2)
           RETURNING id`,
          [c.gameKey, c.importKey, J({ ...c.comment, importKey: c.importKey })],
        );
        return {
          outcome: rows.length ? 'created' : 'unchanged',
          topics: [gameTopic.name(c.gameKey)],
        };
      },
    });
  }
  out.push(
    ...rowSteps('gameTags', plan.gameTags, (gt) => ({
      path: `${p}/games/${gt.gameKey}/tags/${gt.tagKey}`,
      row: {
        table: 'game_tags',
        key: { game_key: gt.gameKey, tag_key: gt.tagKey },
      },
      topics: [gameTopic.name(gt.gameKey), tagTopic.name(gt.tagKey), tagsTopic.name()],
    })),
    ...rowSteps('favoriteScoreboards', plan.favoriteScoreboards, (f) => ({
      path: `users/${f.uid}/favoriteScoreboards/${f.gameKey}`,
      row: {
        table: 'favorite_scoreboards',
        key: { uid: f.uid, game_key: f.gameKey },
        set: { game_name: f.gameName },
      },
      topics: [favoritesTopic.name(f.uid)],
    })),
    ...rowSteps('followedTags', plan.followedTags, (f) => ({
      path: `users/${f.uid}/followedTags/${f.tagKey}`,
      row: {
        table: 'followed_tags',
        key: { uid: f.uid, tag_key: f.tagKey },
      },
      topics: [followedTagsTopic.name(f.uid)],
    })),
  );
  for (const t of plan.teams) {
    out.push({
      kind: 'teams',
      path: `teams/${t.teamKey}`,
      async run(q) {
        const team = await upsert(q, {
          table: 'teams',
          key: { team_key: t.teamKey },
          fixed: { uid: t.uid },
          set: {
            team_name: t.teamName,
            team_notes: t.teamNotes,
            active: t.active,
            published_as_key: t.publishedAsKey,
          },
          touch: true,
        });
        if (team === 'unchanged') await sameOwner(q, 'teams', 'team_key', t.teamKey, t.uid);
        const rows: Row[] = [
          ...t.players.map((pl) => ({
            table: 'players',
            key: { team_key: t.teamKey, player_key: pl.playerKey },
            set: {
              jersey: pl.jersey,
              player_name: pl.playerName,
              player_notes: pl.playerNotes,
              image_url: pl.imageURL,
            },
          })),
          ...t.groups.map((g) => ({
            table: 'team_groups',
            key: { team_key: t.teamKey, group_key: g.groupKey },
            set: { group_name: g.groupName },
          })),
          ...t.membership.map((m) => ({
            table: 'group_membership',
            key: { team_key: t.teamKey, group_key: m.groupKey, player_key: m.playerKey },
            set: { location: m.location },
          })),
        ];
        let outcome = team;
        for (const row of rows) {
          if ((await upsert(q, row)) !== 'unchanged' && outcome === 'unchanged') {
            outcome = 'updated';
          }
        }
        // The owner's list of teams is read over the API, not live: no list topic to bump.
        return { outcome, topics: [teamTopic.name(t.teamKey)] };
      },
    });
  }
  out.push(
    ...rowSteps('rosters', plan.rosters, (r) => ({
      path: `rosters/${r.publishedAsKey}`,
      row: {
        table: 'rosters',
        key: { published_as_key: r.publishedAsKey },
        fixed: { team_key: r.teamKey },
        set: { sheet: new Jsonb(r.sheet), uid: r.uid },
      },
      topics: [rosterTopic.name(r.publishedAsKey), teamTopic.name(r.teamKey)],
    })),
    ...rowSteps('favoriteRosters', plan.favoriteRosters, (f) => ({
      path: `users/${f.uid}/favoriteRosters/${f.publishedAsKey}`,
      row: {
        table: 'favorite_rosters',
        key: { uid: f.uid, published_as_key: f.publishedAsKey },
        set: { team_name: f.teamName },
      },
      // No realtime topic serves followed sheets: nothing to announce.
      topics: [],
    })),
  );
  for (const g of plan.playCounts) {
    out.push({
      kind: 'playCounts',
      path: `gamesPC/${g.gameKey}`,
      async run(q) {
        const outcome = await upsert(q, {
          table: 'play_count_games',
          key: { game_key: g.gameKey },
          fixed: { uid: g.uid },
          set: { game: new Jsonb({ ...g.game, snaps: undefined }), archived: g.archived },
          touch: true,
        });
        if (outcome === 'unchanged')
          await sameOwner(q, 'play_count_games', 'game_key', g.gameKey, g.uid);
        // The count's log as a migrated one starts (DESIGN §10): its snaps as events, then a
        // baseline of its stored counts; what an earlier import wrote is voided, not deleted.
        else await importPlayCountLog(q, g.gameKey, g.uid, g.game);
        return {
          outcome,
          topics: [playCountTopic.name(g.gameKey), myPlayCountsTopic.name(g.uid)],
        };
      },
    });
  }
  return out;
}

async function importPlayCountLog(
  q: Queryable,
  gameKey: string,
  uid: string,
  imported: { gameName: string; gameDate: string; roster: unknown[]; snaps: unknown[] },
): Promise<void> {
  // The export's checks (read-export.ts) already shaped these as the Player Counter's.
  const game = imported as {
    gameName: string;
    gameDate: string;
    roster: PlayCountRosterEntry[];
    snaps: Snap[];
  };
  const meta = { key: null, uid, device: 'import', baseSeq: null };
  const ids = await appendEvents(q, gameKey, meta, [
    ...game.snaps.map((snap) => ({ kind: 'snap' as const, snap, counted: false })),
    { kind: 'baseline', gameName: game.gameName, gameDate: game.gameDate, roster: game.roster },
  ]);
  await q.query(
    `UPDATE playcount_events SET voided_by = $2
      WHERE game_key = $1 AND voided_by IS NULL AND body->>'kind' = 'snap'
        AND NOT (event_id = ANY($3::text[]))`,
    [gameKey, ids.at(-1), ids],
  );
  await q.query('UPDATE play_count_games SET snap_total = $2 WHERE game_key = $1', [
    gameKey,
    game.snaps.length,
  ]);
}

class OwnedElsewhere extends Error {}

/** An upsert that wrote nothing is either the same data or a key another user already owns. */
async function sameOwner(q: Queryable, table: string, keyColumn: string, key: string, uid: string) {
  const rows = await q.query<{ uid: string }>(`SELECT uid FROM ${table} WHERE ${keyColumn} = $1`, [
    key,
  ]);
  if (rows[0] && rows[0].uid !== uid) {
    throw new OwnedElsewhere('this key already belongs to another user in Sagan; left as it is');
  }
}

/**
 * Loads the plan, one transaction per record, so one bad record never blocks the others. Each
 * record is a write on the one write helper, without a request: there is no signed-in writer to
 * guard (an operator runs the import from the shell, holding the database) and no
 * Idempotency-Key (every statement is an upsert, so a second run writes nothing); the helper
 * bumps the topics of what changed at commit, so a running server (PostgreSQL) shows it live.
 */
export async function loadPlan(
  writer: ChangeWriter,
  plan: ImportPlan,
  opts: { onProgress?: (done: number, total: number, kind: Kind) => void } = {},
): Promise<LoadResult> {
  const all = steps(plan);
  const summary = {} as Summary;
  const problems: Problem[] = [];
  let done = 0;
  for (const step of all) {
    summary[step.kind] ??= { created: 0, updated: 0, unchanged: 0 };
    try {
      const { answer: outcome } = await applyChange(writer, null, {
        guard: async () => undefined,
        write: async (q) => {
          const r = await step.run(q);
          return { touched: r.outcome === 'unchanged' ? [] : r.topics, answer: r.outcome };
        },
      });
      summary[step.kind][outcome]++;
    } catch (err) {
      problems.push({ path: step.path, reason: reasonOf(err) });
    }
    opts.onProgress?.(++done, all.length, step.kind);
  }
  return { summary, problems };
}

function reasonOf(err: unknown): string {
  if (err instanceof OwnedElsewhere) return err.message;
  const e = err as { code?: string; message?: string; constraint?: string };
  if (e.code === '23505') {
    return /name_lower/.test(e.message ?? '') || e.constraint === 'tags_name_lower_key'
      ? 'a different tag with this name (ignoring case) already exists in Sagan'
      : 'this key is already used by another record in Sagan';
  }
  if (e.code === '23503') return 'it refers to a record that is not in Sagan';
  return `the database refused it: ${e.message ?? String(err)}`;
}
