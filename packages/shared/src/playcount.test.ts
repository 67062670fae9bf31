import { describe, expect, it } from 'vitest';
import {
  isInSnap,
  playCountGameInputSchema,
  playCountPatchSchema,
  playLocationLabel,
  snapSchema,
  visiblePlayCounts,
} from './playcount.ts';

describe('location labels (SPEC §2 On Field / Sideline)', () => {
  it('1 is On Field, 2 is Sideline, anything else Unknown', () => {
    expect(playLocationLabel(1)).toBe('On Field');
    expect(playLocationLabel(2)).toBe('Sideline');
    expect(playLocationLabel(0)).toBe('Unknown');
    expect(playLocationLabel(3)).toBe('Unknown');
  });
});

describe('archived filter (SPEC §9: archived hidden by default)', () => {
  const games = [
    { gameKey: 'a', archived: false },
    { gameKey: 'b', archived: true },
    { gameKey: 'c', archived: false },
  ];
  it('hides archived games unless asked', () => {
    expect(visiblePlayCounts(games, false).map((g) => g.gameKey)).toEqual(['a', 'c']);
  });
  it('shows all, in order, with the toggle on', () => {
    expect(visiblePlayCounts(games, true).map((g) => g.gameKey)).toEqual(['a', 'b', 'c']);
  });
});

describe('snaps (DESIGN §6: a player key set to true means in the snap)', () => {
  const snap = snapSchema.parse({ snapCount: 1, groupName: 'O', quarter: 1, p1: true });
  it('finds players in a snap and not the snap’s own fields', () => {
    expect(isInSnap(snap, 'p1')).toBe(true);
    expect(isInSnap(snap, 'p2')).toBe(false);
    expect(isInSnap(snap, 'quarter')).toBe(false);
  });
});

describe('Player Counter game schema', () => {
  const game = {
    gameName: 'Eagles at Hawks',
    gameDate: '2025-09-13',
    roster: [{ key: 'p1', jersey: '7', playerName: 'Ann', playCount: 3, location: 1 }],
    snaps: [{ snapCount: 1, groupName: 'Offense', quarter: 1, p1: true }],
  };
  it('accepts a whole game and defaults archived to false', () => {
    const parsed = playCountGameInputSchema.parse(game);
    expect(parsed.archived).toBe(false);
    expect(parsed.snaps[0]?.p1).toBe(true);
  });
  it('refuses a quarter outside 1–4, a location other than 1 or 2, and false snap entries', () => {
    const bad = (patch: object) =>
      playCountGameInputSchema.safeParse({ ...game, ...patch }).success;
    expect(bad({ snaps: [{ snapCount: 1, groupName: 'O', quarter: 5 }] })).toBe(false);
    expect(bad({ snaps: [{ snapCount: 1, groupName: 'O', quarter: 1, p1: false }] })).toBe(false);
    expect(
      bad({ roster: [{ key: 'p', jersey: '1', playerName: 'A', playCount: 0, location: 3 }] }),
    ).toBe(false);
  });
  it('PATCH takes archived and minPlays only', () => {
    expect(playCountPatchSchema.safeParse({ archived: true }).success).toBe(true);
    expect(playCountPatchSchema.safeParse({ minPlays: null }).success).toBe(true);
    expect(playCountPatchSchema.safeParse({ gameName: 'x' }).success).toBe(false);
  });
});
