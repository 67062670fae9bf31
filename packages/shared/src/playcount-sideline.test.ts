import { describe, expect, it } from 'vitest';
import { snapSchema, type PlayCountRosterEntry, type Snap } from './playcount.ts';
import { appendSnap, fieldCountWarning, lineupOf, undoLastSnap } from './playcount-sideline.ts';
import { playsStillNeeded } from './playcount-summary.ts';

const roster: PlayCountRosterEntry[] = [
  { key: 'a', jersey: '1', playerName: 'Ann', playCount: 0, location: 2 },
  { key: 'b', jersey: '2', playerName: 'Bo', playCount: 4, location: 1 },
  { key: 'c', jersey: '3', playerName: 'Cy', playCount: 0, location: 2 },
];

describe('sideline snaps', () => {
  it('appends a snap numbered after the last, gives its players a play and puts them on field', () => {
    const snaps = [snapSchema.parse({ snapCount: 4, groupName: 'O', quarter: 1, b: true })];
    const next = appendSnap(roster, snaps, {
      quarter: 2,
      groupName: 'D',
      players: ['a', 'c', 'a'],
    });
    if (typeof next === 'string') throw new Error(next);
    expect(next.snap).toEqual({ snapCount: 5, groupName: 'D', quarter: 2, a: true, c: true });
    expect(next.snaps).toHaveLength(2);
    expect(next.roster.map((p) => [p.key, p.playCount, p.location])).toEqual([
      ['a', 1, 1],
      ['b', 4, 2],
      ['c', 1, 1],
    ]);
  });

  it('refuses a player not in the count, and a count that is full', () => {
    expect(appendSnap(roster, [], { quarter: 1, groupName: '', players: ['zz'] })).toBe(
      'unknown-player',
    );
    const full = Array.from({ length: 1000 }, (_, i) => ({
      snapCount: i + 1,
      groupName: '',
      quarter: 1,
    })) as Snap[];
    expect(appendSnap(roster, full, { quarter: 1, groupName: '', players: [] })).toBe('full');
  });

  it('undoes the last snap only, never below zero plays, and nothing when there is none', () => {
    const first = appendSnap(roster, [], { quarter: 1, groupName: 'O', players: ['a', 'b'] });
    if (typeof first === 'string') throw new Error(first);
    const second = appendSnap(first.roster, first.snaps, {
      quarter: 1,
      groupName: 'O',
      players: ['b'],
    });
    if (typeof second === 'string') throw new Error(second);
    const undone = undoLastSnap(second.roster, second.snaps);
    expect(undone?.snap.snapCount).toBe(2);
    expect(undone?.roster.map((p) => p.playCount)).toEqual([1, 5, 0]);
    expect(
      undoLastSnap(
        [{ ...roster[0]!, playCount: 0 }],
        [snapSchema.parse({ snapCount: 1, groupName: '', quarter: 1, a: true })],
      )?.roster[0]?.playCount,
    ).toBe(0);
    expect(undoLastSnap(roster, [])).toBeNull();
  });

  it('says how many plays a player still needs', () => {
    expect(playsStillNeeded(3, 8)).toBe(5);
    expect(playsStillNeeded(9, 8)).toBe(0);
    expect(playsStillNeeded(3, null)).toBe(0);
  });

  it('loads a lineup: the group’s Playing players who are in the count, in roster order', () => {
    const membership = {
      c: { location: 1 },
      a: { location: 1 },
      b: { location: 2 },
      gone: { location: 1 },
    };
    expect(lineupOf(membership, ['a', 'b', 'c'])).toEqual(['a', 'c']);
    expect(lineupOf(undefined, ['a'])).toEqual([]);
  });

  it('warns when the number on the field differs from the setting', () => {
    expect(fieldCountWarning(11, 11)).toBeNull();
    expect(fieldCountWarning(3, null)).toBeNull();
    expect(fieldCountWarning(10, 11)).toBe('10 on the field: 1 fewer than the 11 per snap.');
    expect(fieldCountWarning(13, 11)).toBe('13 on the field: 2 more than the 11 per snap.');
  });
});
