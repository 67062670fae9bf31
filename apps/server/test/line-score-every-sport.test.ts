import { describe, expect, it } from 'vitest';
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { stepPeriod, type Team } from '@sagan/shared/scorekeeping';
import { sportName } from '@sagan/shared/sports';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import { API, databaseKinds, newGameOf, useTestApp } from './helpers.ts';
import { gameDetailShowing, TestSocket } from './ws-client.ts';

// A full game of each sport scored by periods, played through the real events route from
// Starting Soon to Final: the line score a viewer's gamedetail: topic shows has each period's
// points where they were scored (overtime and extra time when reached), and adds up to the
// board. Baseball, volleyball and tennis have their own (game-detail, game-rules tests).

type Tap = [Team, 'score' | 'goal' | 'behind', number];
/** A period and the taps made in it, in order. */
type Played = [string, Tap[]];

const h = (by: number): Tap => ['home', 'score', by];
const a = (by: number): Tap => ['away', 'score', by];

const GAMES: { sportID: number; periods: Played[]; cells: string[] }[] = [
  {
    sportID: 1, // the basic board
    periods: [['Period 1', [h(1)]], ['Period 2', [a(1), a(1)]], ['Period 3', []], ['Period 4', [h(1)]]],
    cells: ['Period 1:1-0', 'Period 2:0-2', 'Period 3:0-0', 'Period 4:1-0'],
  },
  {
    sportID: 2, // basketball, to overtime
    periods: [['Q1', [h(2), a(3)]], ['Q2', [h(3)]], ['Q3', [a(2)]], ['Q4', [h(2), a(2)]], ['OT', [h(2)]]],
    cells: ['Q1:2-3', 'Q2:3-0', 'Q3:0-2', 'Q4:2-2', 'OT:2-0'],
  },
  {
    sportID: 3, // soccer, to extra time
    periods: [['1st Half', [h(1)]], ['2nd Half', [a(1)]], ['Extra Time', [a(1)]]],
    cells: ['1st Half:1-0', '2nd Half:0-1', 'Extra Time:0-1'],
  },
  {
    sportID: 5, // American football: touchdowns, field goals, a safety
    periods: [['Q1', [h(7)]], ['Q2', [a(3), a(7)]], ['Q3', [h(2)]], ['Q4', [h(3)]]],
    cells: ['Q1:7-0', 'Q2:0-10', 'Q3:2-0', 'Q4:3-0'],
  },
  {
    sportID: 9, // rugby: tries, conversions, penalties
    periods: [['1st Half', [h(5), h(2), a(3)]], ['2nd Half', [a(5), a(2), h(3)]]],
    cells: ['1st Half:7-3', '2nd Half:3-7'],
  },
  {
    sportID: 10, // lacrosse
    periods: [['Q1', [h(1), h(1)]], ['Q2', [a(1)]], ['Q3', [a(1), a(1)]], ['Q4', [h(1)]]],
    cells: ['Q1:2-0', 'Q2:0-1', 'Q3:0-2', 'Q4:1-0'],
  },
  {
    sportID: 11, // water polo
    periods: [['Q1', [h(1)]], ['Q2', [a(1)]], ['Q3', [h(1), h(1)]], ['Q4', [a(1)]]],
    cells: ['Q1:1-0', 'Q2:0-1', 'Q3:2-0', 'Q4:0-1'],
  },
  {
    sportID: 12, // ice hockey, to overtime
    periods: [['1st Period', [a(1)]], ['2nd Period', []], ['3rd Period', [h(1)]], ['OT', [h(1)]]],
    cells: ['1st Period:0-1', '2nd Period:0-0', '3rd Period:1-0', 'OT:1-0'],
  },
  {
    sportID: 4, // Aussie Rules: goals (6) and behinds (1)
    periods: [
      ['Q1', [['home', 'goal', 1], ['home', 'behind', 1], ['away', 'behind', 1]]],
      ['Q2', [['away', 'goal', 1], ['away', 'goal', 1]]],
      ['Q3', [['home', 'behind', 1], ['home', 'behind', 1]]],
      ['Q4', [['home', 'goal', 1], ['away', 'behind', 1]]],
    ],
    cells: ['Q1:1.1 (7)-0.1 (1)', 'Q2:0.0 (0)-2.0 (12)', 'Q3:0.2 (2)-0.0 (0)', 'Q4:1.0 (6)-0.1 (1)'],
  },
  {
    sportID: 13, // Gaelic: goals (3) and points (1)
    periods: [
      ['1st Half', [['home', 'goal', 1], ['away', 'behind', 1], ['away', 'behind', 1]]],
      ['2nd Half', [['home', 'behind', 1], ['away', 'goal', 1], ['away', 'behind', 1]]],
    ],
    cells: ['1st Half:1.0 (3)-0.2 (2)', '2nd Half:0.1 (1)-1.1 (4)'],
  },
]; // prettier-ignore

const cell = (c: { points: number; goals?: number; behinds?: number } | null) =>
  !c ? '-' : c.goals === undefined ? `${c.points}` : `${c.goals}.${c.behinds} (${c.points})`;
const cells = (d: GameDetail) =>
  d.lineScore.periods.map((p) => `${p.label}:${cell(p.home)}-${cell(p.away)}`);

describe.each(databaseKinds())('a full game of every sport on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper'], listen: true });

  const request = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    t.users.Keeper.request({ method, url: `${API}/games/${url}`, payload });
  async function act(gameKey: string, action: object) {
    const res = await request('POST', `${gameKey}/events`, { action, device: 'phone-a' });
    expect(res.statusCode, res.body).toBe(200);
  }

  it.each(GAMES.map((g) => ({ ...g, sport: sportName(g.sportID) })))(
    '$sport: Starting Soon to Final, each period’s points where they were scored',
    async ({ sportID, periods, cells: expected }) => {
      const gameKey = await newGameOf(t.users.Keeper, { sportID, gameName: 'Full game' });
      const viewer = await TestSocket.open(t.wsUrl);
      await viewer.subscribe(`gamedetail:${gameKey}`);
      // The scorer's "Next period ›" taps, through breaks (Half Time) to each period played.
      let board: Pick<ScoreboardFields, 'sportID' | 'gamePeriod' | 'maxSets'> = {
        ...defaultScoreboard,
        sportID,
      };
      for (const [period, taps] of periods) {
        while (board.gamePeriod !== period) {
          await act(gameKey, { kind: 'period', step: 1 });
          board = { ...board, gamePeriod: stepPeriod(board, 1) };
        }
        for (const [team, kind, by] of taps) await act(gameKey, { kind, team, by });
      }
      const final = await request('PATCH', gameKey, { gamePeriod: 'Final', device: 'phone-a' });
      expect(final.statusCode, final.body).toBe(200);

      const seen = await gameDetailShowing(
        viewer,
        gameKey,
        (d) => cells(d).join() === expected.join(),
      );
      // The periods add up to the board's score.
      const top = (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{
        top: ScoreboardFields;
      }>().top;
      const sum = (side: 'home' | 'away') =>
        seen.data.lineScore.periods.reduce((n, p) => n + (p[side]?.points ?? 0), 0);
      expect(top.gamePeriod).toBe('Final');
      expect([sum('home'), sum('away')]).toEqual([top.homeScore, top.awayScore]);
      viewer.close();
    },
  );
});
