import { defaultScoreboard } from '@sagan/shared/scoreboard';
import { boxScore } from '@sagan/shared/box-score';
import type { GameEventBody } from '@sagan/shared/game-log';
import { lineScore } from '@sagan/shared/line-score';
import { initialsOf } from '@sagan/shared/teamsheet-privacy';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import type { Queryable } from '../../db/db.ts';
import { PUBLIC_GAME } from './repo.ts';
import { loadSheetRows } from './sheet-repo.ts';

/** Who reads a game's detail: anyone (the public board) or one of the game's scorers. */
type Reader = 'public' | 'scorer';

/**
 * The gamedetail: topic's state: the line score folded from the game's whole log (DESIGN §10)
 * and, for a team linked to a sheet, who scored, named as the game's copy of the sheet's
 * privacy allows; null when there is no such game. Read only when someone watches the full
 * board, so the game: topic every viewer gets stays one row.
 */
export function loadGameDetail(q: Queryable, gameKey: string): Promise<GameDetail | null> {
  return loadDetail(q, gameKey, 'public');
}

/**
 * The gamedetailown: topic's state, for the game's scorers: the same, with every scorer named
 * as the sheet's privacy allows even while the sheet is unpublished, and shown for a game an
 * operator hid (its scorers still see it).
 */
export function loadGameDetailOwn(q: Queryable, gameKey: string): Promise<GameDetail | null> {
  return loadDetail(q, gameKey, 'scorer');
}

async function loadDetail(
  q: Queryable,
  gameKey: string,
  reader: Reader,
): Promise<GameDetail | null> {
  const rows = await q.query<{
    event_id: string | null;
    body: GameEventBody | null;
    held: boolean | null;
  }>(
    `SELECT e.event_id, e.body, e.held FROM games g
     LEFT JOIN game_events e ON e.game_key = g.game_key
     WHERE g.game_key = $1 AND ${reader === 'public' ? PUBLIC_GAME : 'true'}
     ORDER BY e.seq, e.at`,
    [gameKey],
  );
  if (!rows.length) return null;
  const log = rows.flatMap((r) =>
    r.event_id && r.body ? [{ id: r.event_id, body: r.body, held: r.held === true }] : [],
  );
  const detail: GameDetail = { lineScore: lineScore(defaultScoreboard, log) };
  const sheets = await loadSheetRows(q, gameKey);
  if (!sheets.length) return detail;
  const scored = boxScore(defaultScoreboard, log);
  const box: NonNullable<GameDetail['boxScore']> = {};
  for (const sheet of sheets) {
    const players = new Map(sheet.players.map((p) => [p.playerKey, p]));
    // Never more than the sheet shows: only players of the game's copy of the sheet, by
    // initials where its privacy asks; and to the public, no name at all (an empty one, the
    // jersey number still shown) while the sheet is unpublished, as its public link then shows
    // nobody. The scorers, who saw the sheet when they picked who scored, read the names.
    const named = reader === 'scorer' || sheet.sheet_published;
    box[sheet.side] = scored[sheet.side].flatMap((line) => {
      const p = players.get(line.player);
      if (!p) return [];
      const name = !named
        ? ''
        : sheet.privacy_initials_only
          ? initialsOf(p.playerName)
          : p.playerName;
      return [{ ...line, jersey: p.jersey, name }];
    });
  }
  return { ...detail, boxScore: box };
}
