import { describe, expect, it } from 'vitest';
import { defaultScoreboard } from '@sagan/shared/scoreboard';
import { applyIntent } from '@sagan/shared/scorekeeping';
import type { OutboxItem } from '../../../lib/outbox.ts';
import { gameStream, withPending, type GameBase, type QueuedAction } from './game-stream.ts';

// What the scorer's phone shows of its queued taps when their set has ended meanwhile (DESIGN
// §10 held events): the server holds them, so the phone does not count them either.

const item = (intent: QueuedAction, n: number): OutboxItem<QueuedAction> => ({
  id: `i${n}`,
  stream: 'game:g',
  intent,
  key: `k${n}`,
  conflicts: 0,
});
const ace = { kind: 'score', team: 'home', by: 1 } as const;
const volley = (gamePeriod: string, seq = 5): GameBase => ({
  seq,
  top: { ...defaultScoreboard, sportID: 6, gamePeriod },
});

describe('the scorekeeper’s queued taps and held events', () => {
  it('shows taps made in the set still being played, not those made in a set that has ended', () => {
    const queued = [1, 2, 3].map((n) => item({ ...ace, madeIn: 'Set 2' }, n));
    expect(withPending(volley('Set 2'), queued).homeScore).toBe(3);
    // The other phone won Set 2 meanwhile: Set 3 is not shown at 3–0.
    expect(withPending(volley('Set 3'), queued).homeScore).toBe(0);
    // Basketball's score runs on: a late tap still counts on the total.
    const hoops = { seq: 5, top: { ...defaultScoreboard, sportID: 2, gamePeriod: 'Q3' } };
    expect(withPending(hoops, [item({ ...ace, madeIn: 'Q2' }, 1)]).homeScore).toBe(1);
  });

  it('a held answer leaves the scoreboard as the base had it', () => {
    const stream = gameStream('g');
    const base = volley('Set 3');
    const request = stream.build({ ...ace, madeIn: 'Set 2' }, base)!;
    expect(request.body).toMatchObject({ period: 'Set 2', baseSeq: 5 });
    const held = stream.settle!(request, base, { seq: 6, held: true, changed: false });
    expect(held).toEqual({ base: { seq: 6, top: base.top } });
    const counted = stream.settle!(request, base, { seq: 6, changed: true });
    expect(counted).toMatchObject({ base: { seq: 6, top: { homeScore: 1 } } });
  });
});

describe('the scorekeeper between a write’s answer and its frame', () => {
  const football = (seq: number, down: number, toGo: number): GameBase => ({
    seq,
    top: { ...defaultScoreboard, sportID: 5, down, toGo },
  });
  const firstAndTen = { kind: 'set', values: { down: 1, toGo: 10 } } as const;
  const toGoMinus = { kind: 'count', field: 'toGo', by: -1 } as const;

  it('shows an answered edit until the live state has it, so the next tap builds on it', () => {
    const stream = gameStream('g');
    const live = football(7, 0, 0);
    const request = stream.build(firstAndTen, live)!;
    // The server took "1st & 10" at seq 8; the game topic's frame of seq 8 is not here yet.
    const answered = [{ ...item(firstAndTen, 1), request, seq: 8 }];
    const shown = withPending(live, [], answered);
    expect(shown).toMatchObject({ down: 1, toGo: 10 });
    // The tap is built on what is shown: a change from 10, not a −1 at 0 (which is no change).
    expect(applyIntent(shown, toGoMinus)).toEqual({ toGo: 9 });
    expect(applyIntent(withPending(live, []), toGoMinus)).toEqual({});
    // Once the live state has seq 8, it is the state: the answered edit is not applied again
    // over a later change (another phone's 2nd & 10 at seq 9).
    expect(withPending(football(9, 2, 10), [], answered)).toMatchObject({ down: 2, toGo: 10 });
  });

  it('shows an answered tap once, whether the live state has it yet or not', () => {
    const down = { kind: 'count', field: 'down', by: 1 } as const;
    const stream = gameStream('g');
    const live = football(8, 1, 10);
    const answered = [{ ...item(down, 1), request: stream.build(down, live)!, seq: 9 }];
    expect(withPending(live, [], answered).down).toBe(2);
    expect(withPending(football(9, 2, 10), [], answered).down).toBe(2);
  });
});
