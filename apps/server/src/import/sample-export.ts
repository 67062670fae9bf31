// A small Firebase export touching every path of SPEC §7, for the importer's tests and
// docs/import.md. Keys look like Firebase push keys (they start with '-').

export const SAMPLE = {
  product: 'sagan',
  ownerUid: 'g0ogleUid123',
  fanUid: 'fanUid456',
  gameKey: '-NxGame1_basket',
  orphanGameKey: '-NxGame2_orphan',
  tagKey: '-NxTagLions',
  teamKey: '-NxTeam1',
  publishedAsKey: '-NxPub1',
  playerKeys: ['-NxP1', '-NxP2'],
  groupKey: '-NxGroup1',
  playCountKey: '-NxPC1',
} as const;

export function sampleExport(): Record<string, unknown> {
  const s = SAMPLE;
  const [p1, p2] = s.playerKeys;
  const roster = {
    [p1]: {
      key: p1,
      jersey: '7',
      playerName: 'Ada Lovelace',
      playerNotes: 'Captain',
      imageURL: '',
    },
    [p2]: {
      key: p2,
      jersey: '12',
      playerName: 'Grace Hopper',
      playerNotes: '',
      imageURL: 'https://firebasestorage.example/p2.jpg',
    },
  };
  const groups = {
    [s.groupKey]: { groupName: 'First Half', groupKey: s.groupKey, key: s.groupKey },
  };
  const groupMembership = {
    [s.groupKey]: { [p1]: { location: 1, playerKey: p1 }, [p2]: { location: 2, playerKey: p2 } },
  };
  return {
    [s.product]: {
      sports: { 1: { name: 'Basic' }, 2: { name: 'Basketball' } },
      games: {
        [s.gameKey]: {
          top: {
            gameName: 'Lions v Tigers',
            gamePeriod: 'Q3',
            sportID: 2,
            homeTeamName: 'Lions',
            awayTeamName: 'Tigers',
            homeScore: '42',
            awayScore: 38,
            homeFouls: 3,
            awayFouls: 4,
            homePossession: 1,
            timeStamp: 1700000000000,
          },
          comments: {
            '-NxC1': {
              homeTeamName: 'Lions',
              homeScore: 10,
              awayTeamName: 'Tigers',
              awayScore: 8,
              gameComment: 'Great start',
              imageURL: '',
            },
            '-NxC2': { gameComment: '' },
          },
          tags: { [s.tagKey]: { name: 'lions' } },
        },
        [s.orphanGameKey]: {
          top: { gameName: 'Pickup game', homeScore: 1, awayScore: 2, timeStamp: 1690000000000 },
        },
      },
      tags: {
        [s.tagKey]: {
          name: 'lions',
          key: s.tagKey,
          serverTimeStamp: 1700000000000,
          gameCount: 1,
          games: { [s.gameKey]: true },
        },
      },
    },
    users: {
      [s.ownerUid]: {
        lastLogin: '1700000000000',
        [s.product]: { games: { [s.gameKey]: true } },
        favoriteScoreboards: {
          [s.gameKey]: { gameName: 'Lions v Tigers' },
          '-NxMissingGame': { gameName: 'Gone' },
        },
        followedTags: { [s.tagKey]: true },
        teams: {
          [s.teamKey]: { teamName: 'Lions U10', teamNotes: 'Saturday league', uid: s.ownerUid },
        },
        favoriteRosters: { [s.publishedAsKey]: { teamName: 'Lions U10' } },
        gamesPC: { [s.playCountKey]: { gameName: 'Lions v Bears', gameDate: '2024-05-04' } },
      },
      [s.fanUid]: {
        lastLogin: '1690000000000',
        favoriteScoreboards: { [s.gameKey]: { gameName: 'Lions v Tigers' } },
      },
    },
    teams: {
      [s.teamKey]: {
        teamName: 'Lions U10',
        teamNotes: 'Saturday league',
        uid: s.ownerUid,
        active: true,
        publishedAsKey: s.publishedAsKey,
        roster,
        groups,
        groupMembership,
      },
    },
    rosters: {
      [s.publishedAsKey]: {
        teamName: 'Lions U10',
        teamNotes: 'Saturday league',
        uid: s.ownerUid,
        roster,
        groups,
        groupMembership,
      },
    },
    gamesPC: {
      [s.playCountKey]: {
        gameName: 'Lions v Bears',
        gameDate: '2024-05-04',
        archived: false,
        roster: [
          { key: p1, jersey: '7', playerName: 'Ada Lovelace', playCount: 2, location: 1 },
          { key: p2, jersey: '12', playerName: 'Grace Hopper', playCount: 1, location: 2 },
        ],
        snaps: [
          { snapCount: 1, groupName: 'First Half', quarter: 1, [p1]: true, [p2]: true },
          { snapCount: 2, groupName: 'First Half', quarter: 2, [p1]: true },
        ],
      },
    },
  };
}
