import { describe, expect, it } from 'vitest';
import { defaultScoreboard } from '@sagan/shared/scoreboard';
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
