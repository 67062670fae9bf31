import type { GameSheetPlayer, GameSheets } from '@sagan/shared/game-sheets';
import { compareJersey } from '@sagan/shared/roster-view';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import type { Team } from '@sagan/shared/scorekeeping';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import type { Queryable } from '../../db/db.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';

// Who scored (DESIGN §10): the game's link to a team sheet per side, with its own copy of the
// sheet's players and privacy option (migration 0120). The routes are in sheets.ts.

export interface SheetRow {
  side: Team;
  team_key: string | null;
  team_name: string;
  players: GameSheetPlayer[];
  privacy_initials_only: boolean;
  sheet_published: boolean;
}

export async function loadSheetRows(q: Queryable, gameKey: string): Promise<SheetRow[]> {
  return q.query<SheetRow>(
    `SELECT side, team_key, team_name, players, privacy_initials_only, sheet_published
     FROM game_sheets WHERE game_key = $1`,
    [gameKey],
  );
}

export function sheetsOf(rows: SheetRow[]): GameSheets {
  const of = (side: Team) => {
    const r = rows.find((row) => row.side === side);
    return r ? { teamKey: r.team_key, teamName: r.team_name, players: r.players } : null;
  };
  return { home: of('home'), away: of('away') };
}

/** Unlinks a side of the game from its team sheet. */
export async function unlinkSheet(q: Queryable, gameKey: string, side: Team): Promise<void> {
  await q.query('DELETE FROM game_sheets WHERE game_key = $1 AND side = $2', [gameKey, side]);
}

/**
 * Links a side of the game to one of uid's team sheets, keeping a copy of its players and
 * privacy with the game; false when uid has no sheet with this key.
 */
export async function linkSheet(
  q: Queryable,
  gameKey: string,
  side: Team,
  teamKey: string,
  uid: string,
): Promise<boolean> {
  const [team] = await q.query<{
    team_name: string;
    public_initials_only: boolean;
    published: boolean;
  }>(
    `SELECT t.team_name, t.public_initials_only,
            EXISTS (SELECT 1 FROM rosters r WHERE r.team_key = t.team_key) AS published
     FROM teams t WHERE t.team_key = $1 AND t.uid = $2`,
    [teamKey, uid],
  );
  if (!team) return false;
  const players = await q.query<GameSheetPlayer>(
    `SELECT player_key AS "playerKey", jersey, player_name AS "playerName"
     FROM players WHERE team_key = $1 ORDER BY player_key`,
    [teamKey],
  );
  // In the sheet's own order: by jersey, then name.
  players.sort(
    (a, b) => compareJersey(a.jersey, b.jersey) || a.playerName.localeCompare(b.playerName),
  );
  await q.query(
    `INSERT INTO game_sheets (game_key, side, team_key, team_name, players,
                              privacy_initials_only, sheet_published)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
     ON CONFLICT (game_key, side) DO UPDATE SET team_key = $3, team_name = $4,
       players = $5::jsonb, privacy_initials_only = $6, sheet_published = $7`,
    [
      gameKey,
      side,
      teamKey,
      team.team_name,
      JSON.stringify(players),
      team.public_initials_only,
      team.published,
    ],
  );
  return true;
}

/**
 * A scoring tap may name a player only from the sheet linked to its team: anything else is
 * refused with words the scorer can act on, and nothing is written.
 */
export async function checkPlayer(
  q: Queryable,
  gameKey: string,
  fields: ScoreboardFields,
  team: Team,
  player: string,
): Promise<void> {
  const rows = await q.query<{ players: GameSheetPlayer[] }>(
    'SELECT players FROM game_sheets WHERE game_key = $1 AND side = $2',
    [gameKey, team],
  );
  const teamName = team === 'home' ? fields.homeTeamName : fields.awayTeamName;
  const sheet = rows[0];
  if (!sheet) {
    throw badRequest(`${teamName} has no team sheet linked to this game, so no player can score`);
  }
  if (!sheet.players.some((p) => p.playerKey === player)) {
    throw badRequest(`That player is not on ${teamName}'s team sheet for this game`);
  }
}

/**
 * The scoring tap a "who scored" names: the newest one this user made on this device for the
 * team that still counts (with tap 'hit': the newest hit while that team batted). 404 when
 * there is none.
 */
export async function lastScoringTap(
  q: Queryable,
  gameKey: string,
  origin: { uid: string; device?: string | null },
  team: Team,
  tap?: 'hit',
): Promise<string> {
  const rows = await q.query<{ event_id: string }>(
    `SELECT event_id FROM game_events
     WHERE game_key = $1 AND uid = $2 AND device IS NOT DISTINCT FROM $3 AND voided_by IS NULL
       AND body ->> 'kind' = ANY($5::text[]) AND body ->> 'team' = $4
     ORDER BY seq DESC LIMIT 1`,
    [gameKey, origin.uid, origin.device ?? null, team, tap ? [tap] : ['score', 'goal', 'behind']],
  );
  if (!rows[0]) {
    throw notFound(
      tap
        ? 'No hit of yours for this team is left to name a batter'
        : 'No scoring tap of yours for this team is left to name a scorer',
    );
  }
  return rows[0].event_id;
}

/**
 * A sheet's privacy changed: the games linked to it follow it. Answers their gamedetail:
 * topics, whose open boards then show the names as the sheet now allows.
 */
export async function followSheetPrivacyOnGames(
  q: Queryable,
  teamKey: string,
  initialsOnly: boolean,
): Promise<string[]> {
  const rows = await q.query<{ game_key: string }>(
    `UPDATE game_sheets SET privacy_initials_only = $2 WHERE team_key = $1 RETURNING game_key`,
    [teamKey, initialsOnly],
  );
  return [...new Set(rows.map((r) => gameDetailTopic.name(r.game_key)))];
}

/**
 * A sheet was published or unpublished: the games linked to it follow it. Answers their
 * gamedetail: topics, whose open boards then name the players, or stop naming them.
 */
export async function followSheetPublishedOnGames(
  q: Queryable,
  teamKey: string,
  published: boolean,
): Promise<string[]> {
  const rows = await q.query<{ game_key: string }>(
    `UPDATE game_sheets SET sheet_published = $2
     WHERE team_key = $1 AND sheet_published <> $2 RETURNING game_key`,
    [teamKey, published],
  );
  return [...new Set(rows.map((r) => gameDetailTopic.name(r.game_key)))];
}
