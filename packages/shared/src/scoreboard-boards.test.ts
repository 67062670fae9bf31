import { describe, expect, it } from 'vitest';
import { defaultScoreboard } from './scoreboard.ts';
import { playBegun } from './game-rules.ts';
import type { BoardKind } from './sports.ts';
import {
  BOARD_SPECS,
  boardFields,
  boardSpec,
  SCORING_FIELDS,
  scoringFields,
  downLabel,
  tennisSets,
  fieldLabel,
  tennisSetsLabel,
  tennisSummary,
  type ScoreboardFieldName,
} from './scoreboard-boards.ts';

const header: ScoreboardFieldName[] = ['gameName', 'gamePeriod', 'homeTeamName', 'awayTeamName'];
const sets: ScoreboardFieldName[] = [1, 2, 3, 4, 5].flatMap(
  (n) => [`homeSet${n}`, `awaySet${n}`] as ScoreboardFieldName[],
);

// SPEC §2 Boards by sport: each board shows exactly these fields.
describe('every board reads the fields SPEC §2 lists for it', () => {
  it.each([
    ['basic', [...header, 'homeScore', 'awayScore'], true],
    ['basketball', [...header, 'homeScore', 'awayScore', 'homeFouls', 'awayFouls'], true],
    [
      'aussie',
      [
        ...header,
        'homeScore',
        'awayScore',
        'homeScoreGoals',
        'awayScoreGoals',
        'homeScorePoints',
        'awayScorePoints',
      ],
      true,
    ],
    [
      'football',
      [...header, 'homeScore', 'awayScore', 'ballOn', 'toGo', 'down', 'homePossession'],
      true,
    ],
    [
      'volleyball',
      [...header, 'homeScore', 'awayScore', 'homeScoreGames', 'awayScoreGames'],
      false,
    ],
    [
      'baseball',
      [
        ...header,
        'homeScore',
        'awayScore',
        'base1',
        'base2',
        'base3',
        'balls',
        'strikes',
        'outs',
        'homePossession',
      ],
      false,
    ],
    [
      'tennis',
      [
        ...header,
        'homeScoreGames',
        'awayScoreGames',
        'homeScorePointsTennis',
        'awayScorePointsTennis',
        ...sets,
        'maxSets',
        'homePossession',
      ],
      false,
    ],
    [
      'lacrosse',
      [
        ...header,
        'homeScore',
        'awayScore',
        'homeShots',
        'awayShots',
        'homeSaves',
        'awaySaves',
        'homeManUp',
        'awayManUp',
      ],
      true,
    ],
  ] as const)('%s', (kind, fields, clock) => {
    expect([...boardFields(kind)].sort()).toEqual([...fields].sort());
    expect(
      boardSpec(
        {
          basic: 1,
          basketball: 2,
          aussie: 4,
          football: 5,
          volleyball: 6,
          baseball: 7,
          tennis: 8,
          lacrosse: 10,
        }[kind],
      ).clock,
    ).toBe(clock);
  });

  it('Aussie Rules counts behinds, Gaelic counts points, on the same fields', () => {
    expect(boardSpec(4).stats.map((s) => s.label)).toEqual(['Goals', 'Behinds']);
    expect(boardSpec(13).stats.map((s) => s.label)).toEqual(['Goals', 'Points']);
    expect(boardSpec(13).stats[1]?.home).toBe('homeScorePoints');
  });

  it('sports without their own board get the Basic board', () => {
    for (const id of [1, 3, 9, 11, 12, 77]) expect(boardSpec(id).kind).toBe('basic');
  });
});

describe('tennis', () => {
  const game = {
    ...defaultScoreboard,
    homeSet1: 6,
    awaySet1: 4,
    homeSet2: 3,
    awaySet2: 6,
    homeSet3: 2,
    homeSet4: 9,
    homeSet5: 9,
  };
  it('shows sets 1 to maxSets', () => {
    expect(tennisSets({ ...game, maxSets: 3 })).toEqual([
      { set: 1, home: 6, away: 4 },
      { set: 2, home: 3, away: 6 },
      { set: 3, home: 2, away: 0 },
    ]);
    expect(tennisSets({ ...game, maxSets: 5 })).toHaveLength(5);
    expect(tennisSets({ ...game, maxSets: 1 })).toHaveLength(1);
  });
  it('sums a game up for its card: the sets begun and the current games', () => {
    expect(
      tennisSummary({ ...game, maxSets: 3, homeScoreGames: 2, awayScoreGames: 1, homeScore: 0 }),
    ).toEqual({
      sets: [
        { home: 6, away: 4 },
        { home: 3, away: 6 },
        { home: 2, away: 0 },
      ],
      homeGames: 2,
      awayGames: 1,
    });
    expect(tennisSummary({ ...defaultScoreboard, maxSets: 5 }).sets).toEqual([]);
  });
  it("labels the period as 'period / maxSets sets'", () => {
    expect(tennisSetsLabel('Set 2', 5)).toBe('Set 2 / 5 sets');
  });
  it('says the period alone before the match and once it is over', () => {
    expect(tennisSetsLabel('Final', 3)).toBe('Final');
    expect(tennisSetsLabel('Starting Soon', 3)).toBe('Starting Soon');
  });
  it('shows only the sets played, never an unplayed one', () => {
    const played = { ...defaultScoreboard, maxSets: 3, homeSet1: 6, awaySet1: 4 };
    // In the second set with a game each: sets 1 and 2, no 'Set 3 0 0'.
    expect(
      tennisSets({ ...played, gamePeriod: 'Set 2', homeSet2: 1, awaySet2: 1 }).map((s) => s.set),
    ).toEqual([1, 2]);
    // A set just begun (0–0) shows, as the period names it.
    expect(tennisSets({ ...played, gamePeriod: 'Set 2' })).toEqual([
      { set: 1, home: 6, away: 4 },
      { set: 2, home: 0, away: 0 },
    ]);
    // A match won in straight sets ends with two sets, not three.
    const final = { ...played, gamePeriod: 'Final', homeSet2: 6, awaySet2: 3 };
    expect(tennisSets(final).map((s) => s.set)).toEqual([1, 2]);
    expect(tennisSets({ ...defaultScoreboard, gamePeriod: 'Starting Soon' })).toEqual([]);
    expect(tennisSets({ ...defaultScoreboard, gamePeriod: 'Set 1' })).toHaveLength(1);
    // A period past maxSets (a typed-in edit) still stops at maxSets.
    expect(tennisSets({ ...played, gamePeriod: 'Set 5' })).toHaveLength(3);
  });
});

describe('fieldLabel', () => {
  it('says what a field counts on its sport’s board', () => {
    expect(fieldLabel('homeScoreGames', 6)).toBe('Home sets won');
    expect(fieldLabel('awayScore', 6)).toBe('Away points in this set');
    expect(fieldLabel('homeScoreGames', 8)).toBe('Home games in this set');
    expect(fieldLabel('awayScorePointsTennis', 8)).toBe('Away points in this game');
    expect(fieldLabel('homeScore', 2)).toBe('Home score');
    expect(fieldLabel('homeFouls', 2)).toBe('Home fouls');
    expect(fieldLabel('awayScorePoints', 4)).toBe('Away behinds');
    expect(fieldLabel('awayScorePoints', 13)).toBe('Away points');
    expect(fieldLabel('homeScore', 7)).toBe('Home runs');
  });
  it('names no field its board has no row for', () => {
    expect(fieldLabel('gameName', 6)).toBeNull();
    expect(fieldLabel('homeSet1', 8)).toBeNull();
    expect(fieldLabel('homeFouls', 6)).toBeNull();
  });
});

describe('football down', () => {
  it.each([
    [0, '-'],
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
  ])('%i is %s', (down, label) => expect(downLabel(down)).toBe(label));
});

// A scheduled game is upcoming until a scoring event moves one of SCORING_FIELDS (the server's
// SQL reads this list), and a game's rules are fixed once one of its board's moved (playBegun).
describe('the scoring fields: what begins play', () => {
  // Team fields a board shows that count no score, so changing them begins nothing.
  const notScoring = new Set<ScoreboardFieldName>([
    'homeFouls',
    'awayFouls',
    'homeShots',
    'awayShots',
    'homeSaves',
    'awaySaves',
    'homeManUp',
    'awayManUp',
    'homePossession',
    'homeTeamName',
    'awayTeamName',
  ]);

  const kinds = Object.keys(BOARD_SPECS) as BoardKind[];

  it.each(kinds)('every team field of the %s board is scoring or named as not', (kind) => {
    const team = boardFields(kind).filter((f) => /^(home|away)/.test(f));
    for (const field of team) {
      expect(
        SCORING_FIELDS.includes(field) !== notScoring.has(field),
        `${kind}: ${field} is scoring or not`,
      ).toBe(true);
    }
    for (const field of scoringFields(kind)) expect(SCORING_FIELDS).toContain(field);
  });

  it('covers every score, goal, behind, game, set and tennis point', () => {
    expect([...SCORING_FIELDS].sort()).toEqual(
      [
        'homeScore',
        'awayScore',
        'homeScoreGoals',
        'awayScoreGoals',
        'homeScorePoints',
        'awayScorePoints',
        'homeScoreGames',
        'awayScoreGames',
        'homeScorePointsTennis',
        'awayScorePointsTennis',
        ...sets,
      ].sort(),
    );
  });

  it("fixes a tennis or volleyball game's rules once any of its scoring fields moved", () => {
    const tennis = { ...defaultScoreboard, sportID: 8 };
    const volleyball = { ...defaultScoreboard, sportID: 6 };
    expect(playBegun(tennis)).toBe(false);
    expect(playBegun(volleyball)).toBe(false);
    for (const field of scoringFields('tennis')) {
      const moved = typeof tennis[field] === 'string' ? '15' : 1;
      expect(playBegun({ ...tennis, [field]: moved }), field).toBe(true);
    }
    for (const field of scoringFields('volleyball')) {
      expect(playBegun({ ...volleyball, [field]: 1 }), field).toBe(true);
    }
    expect(playBegun({ ...volleyball, homeFouls: 3 })).toBe(false);
    expect(playBegun({ ...defaultScoreboard, sportID: 2, homeScore: 2 })).toBe(false);
  });
});
