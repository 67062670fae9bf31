import crypto from 'node:crypto';

export const newGameKey = () => `pc_${crypto.randomBytes(8).toString('base64url')}`;

/** A small game as Player Counter writes it: two players, three snaps. */
export function sampleGame(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    gameName: 'Eagles at Hawks',
    gameDate: '2025-09-13',
    roster: [
      { key: 'p1', jersey: '7', playerName: 'Lee, Ann', playCount: 2, location: 1 },
      {
        key: 'p2',
        jersey: '23',
        playerName: 'Bo "Flash" Ray',
        playCount: 1,
        location: 2,
        imageURL: 'https://example.com/bo.jpg',
      },
    ],
    snaps: [
      { snapCount: 1, groupName: 'Offense', quarter: 1, p1: true },
      { snapCount: 2, groupName: 'Defense', quarter: 1, p1: true, p2: true },
      { snapCount: 3, groupName: 'Offense', quarter: 2 },
    ],
    ...overrides,
  };
}
