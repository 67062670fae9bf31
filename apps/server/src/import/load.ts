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
import type { Db, Queryable } from '../db/db.ts';
import { appendBaseline } from '../lib/game-write.ts';
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

/** Bumps topics so a running server (PostgreSQL) shows imported data live (DESIGN §4). */
export type Notify = (q: Queryable, topics: string[]) => Promise<void>;

interface Step {
  kind: Kind;
  path: string;
  run(q: Queryable): Promise<{ outcome: Outcome; topics: string[] }>;
}

const J = JSON.stringify;

/** Runs an upsert whose RETURNING yields `created` (xmax = 0) only when a row was written. */
async function upsert(q: Queryable, sql: string, params: unknown[]): Promise<Outcome> {
  const rows = await q.query<{ created: boolean }>(sql, params);
  if (!rows.length) return 'unchanged';
  return rows.some((r) => r.created) ? 'created' : 'updated';
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
        outcome: await upsert(
          q,
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
        topics: [],
      }),
    });
  }
  for (const t of plan.tags) {
    out.push({
      kind: 'tags',
      path: `${p}/tags/${t.tagKey}`,
      run: async (q) => ({
        outcome: await upsert(
          q,
          `INSERT INTO tags AS t (tag_key, name, name_lower, server_time_stamp) VALUES ($1, $2, $3, $4)
           ON CONFLICT (tag_key) DO UPDATE SET name = EXCLUDED.name, name_lower = EXCLUDED.name_lower,
             server_time_stamp = EXCLUDED.server_time_stamp
           WHERE (t.name, t.server_time_stamp) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.server_time_stamp)
           RETURNING (xmax = 0) AS created`,
          [t.tagKey, t.name, t.name.toLowerCase(), t.serverTimeStamp],
        ),
        topics: [tagsTopic.name(), tagTopic.name(t.tagKey)],
      }),
    });
  }
  for (const g of plan.games) {
    out.push({
      kind: 'games',
      path: `${p}/games/${g.gameKey}/top`,
      async run(q) {
        const outcome = await upsert(
          q,
          `INSERT INTO games AS g (game_key, uid, fields, time_stamp) VALUES ($1, $2, $3::jsonb, $4)
           ON CONFLICT (game_key) DO UPDATE SET fields = EXCLUDED.fields, time_stamp = EXCLUDED.time_stamp
           WHERE g.uid = EXCLUDED.uid
             AND (g.fields, g.time_stamp) IS DISTINCT FROM (EXCLUDED.fields, EXCLUDED.time_stamp)
           RETURNING (xmax = 0) AS created`,
          [g.gameKey, g.uid, J(g.fields), g.timeStamp],
        );
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
  for (const gt of plan.gameTags) {
    out.push({
      kind: 'gameTags',
      path: `${p}/games/${gt.gameKey}/tags/${gt.tagKey}`,
      run: async (q) => ({
        outcome: await upsert(
          q,
          `INSERT INTO game_tags (game_key, tag_key) VALUES ($1, $2) ON CONFLICT DO NOTHING
           RETURNING true AS created`,
          [gt.gameKey, gt.tagKey],
        ),
        topics: [gameTopic.name(gt.gameKey), tagTopic.name(gt.tagKey), tagsTopic.name()],
      }),
    });
  }
  for (const f of plan.favoriteScoreboards) {
    out.push({
      kind: 'favoriteScoreboards',
      path: `users/${f.uid}/favoriteScoreboards/${f.gameKey}`,
      run: async (q) => ({
        outcome: await upsert(
          q,
          `INSERT INTO favorite_scoreboards AS f (uid, game_key, game_name) VALUES ($1, $2, $3)
           ON CONFLICT (uid, game_key) DO UPDATE SET game_name = EXCLUDED.game_name
           WHERE f.game_name IS DISTINCT FROM EXCLUDED.game_name
           RETURNING (xmax = 0) AS created`,
          [f.uid, f.gameKey, f.gameName],
        ),
        topics: [favoritesTopic.name(f.uid)],
      }),
    });
  }
  for (const f of plan.followedTags) {
    out.push({
      kind: 'followedTags',
      path: `users/${f.uid}/followedTags/${f.tagKey}`,
      run: async (q) => ({
        outcome: await upsert(
          q,
          `INSERT INTO followed_tags (uid, tag_key) VALUES ($1, $2) ON CONFLICT DO NOTHING
           RETURNING true AS created`,
          [f.uid, f.tagKey],
        ),
        topics: [followedTagsTopic.name(f.uid)],
      }),
    });
  }
  for (const t of plan.teams) {
    out.push({
      kind: 'teams',
      path: `teams/${t.teamKey}`,
      async run(q) {
        let outcome = await upsert(
          q,
          `INSERT INTO teams AS t (team_key, uid, team_name, team_notes, active, published_as_key)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (team_key) DO UPDATE SET team_name = EXCLUDED.team_name,
             team_notes = EXCLUDED.team_notes, active = EXCLUDED.active,
             published_as_key = EXCLUDED.published_as_key, updated_at = now()
           WHERE t.uid = EXCLUDED.uid AND (t.team_name, t.team_notes, t.active, t.published_as_key)
             IS DISTINCT FROM (EXCLUDED.team_name, EXCLUDED.team_notes, EXCLUDED.active, EXCLUDED.published_as_key)
           RETURNING (xmax = 0) AS created`,
          [t.teamKey, t.uid, t.teamName, t.teamNotes, t.active, t.publishedAsKey],
        );
        if (outcome === 'unchanged') await sameOwner(q, 'teams', 'team_key', t.teamKey, t.uid);
        const more = (o: Outcome) => {
          if (outcome === 'unchanged' && o !== 'unchanged') outcome = 'updated';
        };
        for (const pl of t.players) {
          more(
            await upsert(
              q,
              `INSERT INTO players AS p (team_key, player_key, jersey, player_name, player_notes, image_url)
               VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (team_key, player_key) DO UPDATE SET jersey = EXCLUDED.jersey,
                 player_name = EXCLUDED.player_name, player_notes = EXCLUDED.player_notes,
                 image_url = EXCLUDED.image_url
               WHERE (p.jersey, p.player_name, p.player_notes, p.image_url) IS DISTINCT FROM
                 (EXCLUDED.jersey, EXCLUDED.player_name, EXCLUDED.player_notes, EXCLUDED.image_url)
               RETURNING (xmax = 0) AS created`,
              [t.teamKey, pl.playerKey, pl.jersey, pl.playerName, pl.playerNotes, pl.imageURL],
            ),
          );
        }
        for (const g of t.groups) {
          more(
            await upsert(
              q,
              `INSERT INTO team_groups AS g (team_key, group_key, group_name) VALUES ($1, $2, $3)
               ON CONFLICT (team_key, group_key) DO UPDATE SET group_name = EXCLUDED.group_name
               WHERE g.group_name IS DISTINCT FROM EXCLUDED.group_name
               RETURNING (xmax = 0) AS created`,
              [t.teamKey, g.groupKey, g.groupName],
            ),
          );
        }
        for (const m of t.membership) {
          more(
            await upsert(
              q,
              `INSERT INTO group_membership AS m (team_key, group_key, player_key, location)
               VALUES ($1, $2, $3, $4)
               ON CONFLICT (team_key, group_key, player_key) DO UPDATE SET location = EXCLUDED.location
               WHERE m.location IS DISTINCT FROM EXCLUDED.location
               RETURNING (xmax = 0) AS created`,
              [t.teamKey, m.groupKey, m.playerKey, m.location],
            ),
          );
        }
        // The owner's list of teams is read over the API, not live: no list topic to bump.
        return { outcome, topics: [teamTopic.name(t.teamKey)] };
      },
    });
  }
  for (const r of plan.rosters) {
    out.push({
      kind: 'rosters',
      path: `rosters/${r.publishedAsKey}`,
      run: async (q) => ({
        outcome: await upsert(
          q,
          `INSERT INTO rosters AS r (published_as_key, team_key, uid, sheet) VALUES ($1, $2, $3, $4::jsonb)
           ON CONFLICT (published_as_key) DO UPDATE SET sheet = EXCLUDED.sheet, uid = EXCLUDED.uid
           WHERE r.team_key = EXCLUDED.team_key
             AND (r.sheet, r.uid) IS DISTINCT FROM (EXCLUDED.sheet, EXCLUDED.uid)
           RETURNING (xmax = 0) AS created`,
          [r.publishedAsKey, r.teamKey, r.uid, J(r.sheet)],
        ),
        topics: [rosterTopic.name(r.publishedAsKey), teamTopic.name(r.teamKey)],
      }),
    });
  }
  for (const f of plan.favoriteRosters) {
    out.push({
      kind: 'favoriteRosters',
      path: `users/${f.uid}/favoriteRosters/${f.publishedAsKey}`,
      run: async (q) => ({
        outcome: await upsert(
          q,
          `INSERT INTO favorite_rosters AS f (uid, published_as_key, team_name) VALUES ($1, $2, $3)
           ON CONFLICT (uid, published_as_key) DO UPDATE SET team_name = EXCLUDED.team_name
           WHERE f.team_name IS DISTINCT FROM EXCLUDED.team_name
           RETURNING (xmax = 0) AS created`,
          [f.uid, f.publishedAsKey, f.teamName],
        ),
        // No realtime topic serves followed sheets: nothing to announce.
        topics: [],
      }),
    });
  }
  for (const g of plan.playCounts) {
    out.push({
      kind: 'playCounts',
      path: `gamesPC/${g.gameKey}`,
      async run(q) {
        const outcome = await upsert(
          q,
          `INSERT INTO play_count_games AS g (game_key, uid, game, archived) VALUES ($1, $2, $3::jsonb, $4)
           ON CONFLICT (game_key) DO UPDATE SET game = EXCLUDED.game, archived = EXCLUDED.archived,
             updated_at = now()
           WHERE g.uid = EXCLUDED.uid AND (g.game, g.archived) IS DISTINCT FROM (EXCLUDED.game, EXCLUDED.archived)
           RETURNING (xmax = 0) AS created`,
          [g.gameKey, g.uid, J({ ...g.game, snaps: undefined }), g.archived],
        );
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

/** Loads the plan, one transaction per record, so one bad record never blocks the others. */
export async function loadPlan(
  db: Db,
  plan: ImportPlan,
  opts: { notify?: Notify; onProgress?: (done: number, total: number, kind: Kind) => void } = {},
): Promise<LoadResult> {
  const all = steps(plan);
  const summary = {} as Summary;
  const problems: Problem[] = [];
  let done = 0;
  for (const step of all) {
    summary[step.kind] ??= { created: 0, updated: 0, unchanged: 0 };
    try {
      const outcome = await db.tx(async (q) => {
        const r = await step.run(q);
        if (r.outcome !== 'unchanged' && opts.notify) await opts.notify(q, r.topics);
        return r.outcome;
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
