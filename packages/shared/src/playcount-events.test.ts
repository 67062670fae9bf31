import { describe, expect, it } from 'vitest';
import type { PlayCountRosterEntry, Snap } from './playcount.ts';
import { applyPlayCountDelta, applyRosterChange } from './playcount-delta.ts';
import { foldPlayCount, rosterChange, type PlayCountEvent } from './playcount-events.ts';
import { makeSnap } from './playcount-sideline.ts';

const player = (key: string, playCount = 0, location: 1 | 2 = 2): PlayCountRosterEntry => ({
  key,
  jersey: key.slice(1),
  playerName: `Player ${key}`,
  playCount,
  location,
});
const snap = (n: number, ...players: string[]): Snap =>
  makeSnap(n, { quarter: 1, groupName: '', players });
const ev = (eventId: string, body: PlayCountEvent['body'], voidedBy: string | null = null) => ({
  eventId,
  body,
  voidedBy,
});
const baseline = (...roster: PlayCountRosterEntry[]) =>
  ev('b', { kind: 'baseline', gameName: 'G', gameDate: 'D', roster });

describe('play-count fold', () => {
  it('counts snaps where they stand, takes an undone one back and restores the field', () => {
    const state = foldPlayCount([
      baseline(player('p1'), player('p2')),
      ev('s1', { kind: 'snap', snap: snap(1, 'p1'), counted: true }),
      ev('s2', { kind: 'snap', snap: snap(2, 'p2'), counted: true }, 'u1'),
      ev('u1', { kind: 'undo', target: 's2', snap: snap(2, 'p2'), previous: ['p1'] }),
    ]);
    expect(state.snaps).toEqual([snap(1, 'p1')]);
    expect(state.roster.map((p) => [p.key, p.playCount, p.location])).toEqual([
      ['p1', 1, 1],
      ['p2', 0, 2],
    ]);
  });

  it('a baseline sets the counts whatever the snaps before it add up to', () => {
    const state = foldPlayCount([
      ev('m1', { kind: 'snap', snap: snap(1, 'p1'), counted: false }),
      baseline(player('p1', 7, 1)),
    ]);
    expect(state.roster[0]!.playCount).toBe(7);
    expect(state.snaps).toHaveLength(1);
  });

  it("a phone's set applies only what it names; finish is kept", () => {
    const state = foldPlayCount([
      baseline(player('p1'), player('p2')),
      ev('s', { kind: 'set', gameName: 'H', roster: { upsert: [{ key: 'p2', playCount: 4 }] } }),
      ev('f', { kind: 'finish', finished: true }),
    ]);
    expect(state).toMatchObject({ gameName: 'H', gameDate: 'D', finished: true });
    expect(state.roster.map((p) => p.playCount)).toEqual([0, 4]);
  });
});

describe('roster changes and deltas', () => {
  it('names only the changed fields, new and removed players, and a new order', () => {
    const before = [player('p1'), player('p2'), player('p3')];
    const after = [{ ...player('p3'), playCount: 2 }, player('p1'), player('p4')];
    const change = rosterChange(before, after)!;
    expect(change).toEqual({
      upsert: [{ key: 'p3', playCount: 2 }, player('p4')],
      remove: ['p2'],
      order: ['p3', 'p1', 'p4'],
    });
    expect(applyRosterChange(before, change)).toEqual(after);
    expect(rosterChange(after, after)).toBeNull();
  });

  it('a delta turns the state it follows into the next one', () => {
    const state = { gameName: 'G', roster: [player('p1'), player('p2')], snaps: [snap(1, 'p1')] };
    const next = applyPlayCountDelta(state, {
      fields: { gameName: 'H' },
      roster: { upsert: [{ key: 'p2', playCount: 1, location: 1 }] },
      snaps: { keep: 1, add: [snap(2, 'p2')] },
    });
    expect(next.gameName).toBe('H');
    expect(next.roster[1]).toEqual(player('p2', 1, 1));
    expect(next.snaps).toEqual([snap(1, 'p1'), snap(2, 'p2')]);
    // An undo keeps all but the last.
    expect(applyPlayCountDelta(next, { snaps: { keep: 1, add: [] } }).snaps).toHaveLength(1);
  });
});
