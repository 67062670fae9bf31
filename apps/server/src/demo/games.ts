import type { ScoreboardPatch } from '@sagan/shared/scoreboard';

// The demo community's games, data only: the seed writes them, and the e2e boards are built from
// them, so what a newcomer sees first is what the board tests look at.

interface DemoGame {
  fields: ScoreboardPatch;
  tags: string[];
  comments?: string[];
  clock?: { formattedTime: string; seconds: number };
}

// DESIGN §7: a newcomer sees a community with games of every sport (SPEC §3), tags and comments.
export const DEMO_GAMES: readonly DemoGame[] = [
  {
    fields: {
      gameName: 'Varsity Hoops',
      sportID: 2,
      gamePeriod: 'Q3',
      homeTeamName: 'Eagles',
      awayTeamName: 'Hawks',
      homeScore: 48,
      awayScore: 45,
      homeFouls: 4,
      awayFouls: 6,
    },
    tags: ['HighSchool', 'Demo'],
    comments: ['Eagles on a 7-0 run!', 'Tip-off, good luck both teams'],
    clock: { formattedTime: '8:00', seconds: 480 },
  },
  {
    fields: {
      gameName: 'Sunday League',
      sportID: 3,
      gamePeriod: '2nd Half',
      homeTeamName: 'Rovers',
      awayTeamName: 'United',
      homeScore: 1,
      awayScore: 1,
    },
    tags: ['Weekend', 'Demo'],
    comments: ['Equaliser from a corner'],
    clock: { formattedTime: '52:00', seconds: 3120 },
  },
  {
    fields: {
      gameName: 'Box Lacrosse Cup',
      sportID: 10,
      gamePeriod: 'Q2',
      homeTeamName: 'Storm',
      awayTeamName: 'Blaze',
      homeScore: 5,
      awayScore: 4,
      homeShots: 18,
      awayShots: 15,
      homeSaves: 11,
      awaySaves: 13,
      awayManUp: true,
    },
    tags: ['U12', 'Demo'],
    clock: { formattedTime: '12:00', seconds: 720 },
  },
  {
    fields: {
      gameName: 'Backyard Scrimmage',
      sportID: 1,
      gamePeriod: 'Half 1',
      homeTeamName: 'Blue',
      awayTeamName: 'Gold',
      homeScore: 12,
      awayScore: 9,
    },
    tags: ['Weekend'],
    clock: { formattedTime: '14:10', seconds: 850 },
  },
  {
    fields: {
      gameName: 'Footy Derby',
      sportID: 4,
      gamePeriod: 'Q2',
      homeTeamName: 'Swans',
      awayTeamName: 'Magpies',
      homeScoreGoals: 5,
      homeScorePoints: 4,
      homeScore: 34,
      awayScoreGoals: 4,
      awayScorePoints: 7,
      awayScore: 31,
    },
    tags: ['Demo'],
    comments: ['What a mark!'],
  },
  {
    fields: {
      gameName: 'Homecoming',
      sportID: 5,
      gamePeriod: 'Q4',
      homeTeamName: 'Bears',
      awayTeamName: 'Lions',
      homeScore: 21,
      awayScore: 17,
      ballOn: 35,
      toGo: 7,
      down: 3,
      homePossession: true,
    },
    tags: ['HighSchool'],
    clock: { formattedTime: '3:41', seconds: 221 },
  },
  {
    fields: {
      gameName: 'Club Volleyball',
      sportID: 6,
      gamePeriod: 'Set 3',
      homeTeamName: 'Spikers',
      awayTeamName: 'Diggers',
      homeScore: 18,
      awayScore: 21,
      homeScoreGames: 1,
      awayScoreGames: 1,
    },
    tags: ['U12'],
  },
  {
    fields: {
      gameName: 'Little League',
      sportID: 7,
      gamePeriod: 'Top 6th',
      homeTeamName: 'Cubs',
      awayTeamName: 'Pirates',
      homeScore: 3,
      awayScore: 4,
      base1: true,
      base3: true,
      balls: 2,
      strikes: 1,
      outs: 1,
      homePossession: false,
    },
    tags: ['U12', 'Weekend'],
    comments: ['Bases loaded earlier, only one run'],
  },
  {
    fields: {
      gameName: 'Club Championship',
      sportID: 8,
      gamePeriod: 'Set 2',
      homeTeamName: 'A. Rivera',
      awayTeamName: 'K. Osei',
      maxSets: 3,
      homeSet1: 6,
      awaySet1: 4,
      homeSet2: 3,
      awaySet2: 2,
      homeScoreGames: 3,
      awayScoreGames: 2,
      homeScorePointsTennis: '30',
      awayScorePointsTennis: '15',
      homePossession: true,
    },
    tags: ['Demo'],
  },
  {
    fields: {
      gameName: 'Sevens Final',
      sportID: 9,
      gamePeriod: 'Final',
      homeTeamName: 'Harlequins',
      awayTeamName: 'Saracens',
      homeScore: 24,
      awayScore: 19,
    },
    tags: ['Weekend'],
    comments: ['Full time. Great game everyone!'],
  },
  {
    fields: {
      gameName: 'Pool Night',
      sportID: 11,
      gamePeriod: 'Starting Soon',
      homeTeamName: 'Sharks',
      awayTeamName: 'Dolphins',
    },
    tags: ['HighSchool'],
  },
  {
    fields: {
      gameName: 'Rink Rivals',
      sportID: 12,
      gamePeriod: 'P2',
      homeTeamName: 'Wolves',
      awayTeamName: 'Bruins',
      homeScore: 2,
      awayScore: 2,
    },
    tags: ['Demo'],
    clock: { formattedTime: '11:25', seconds: 685 },
  },
  {
    fields: {
      gameName: 'County Hurling',
      sportID: 13,
      gamePeriod: '2nd Half',
      homeTeamName: 'Kilkenny',
      awayTeamName: 'Cork',
      homeScoreGoals: 2,
      homeScorePoints: 14,
      homeScore: 20,
      awayScoreGoals: 1,
      awayScorePoints: 16,
      awayScore: 19,
    },
    tags: ['Weekend'],
  },
];

/** A demo game's fields by its name, for a test to build on (a copy: the test may change it). */
export function demoFields(gameName: string): ScoreboardPatch {
  const game = DEMO_GAMES.find((g) => g.fields.gameName === gameName);
  if (!game) throw new Error(`no demo game named ${gameName}`);
  return { ...game.fields };
}
