import { describe, expect, it } from 'vitest';
import { defaultScoreboard } from './scoreboard.ts';
import {
  countedEvents,
  foldGame,
  foldSteps,
  isHeld,
  placeInPeriod,
  type LoggedEvent,
} from './game-log.ts';

const plus = (id: string, by: number): LoggedEvent => ({
  id,
  body: { kind: 'score', team: 'home', by },
});
const voids = (id: string, target: string): LoggedEvent => ({
  id,
  body: { kind: 'void', target },
});

describe('the fold of a game log', () => {
  it('applies the counted events in order; voids take back their target', () => {
    const log = [plus('a', 2), plus('b', 3), voids('v', 'a')];
    expect(countedEvents(log).map((e) => e.id)).toEqual(['b']);
    expect(foldGame(defaultScoreboard, log).homeScore).toBe(3);
  });

  it('a void of a void counts its target again; chains settle from the newest', () => {
    const log = [plus('a', 2), voids('v1', 'a'), voids('v2', 'v1'), voids('v3', 'v2')];
    expect(foldGame(defaultScoreboard, log).homeScore).toBe(0);
    expect(foldGame(defaultScoreboard, log.slice(0, 3)).homeScore).toBe(2);
  });

  it('a set overwrites what came before it; voiding the earlier tap then changes nothing', () => {
    const log: LoggedEvent[] = [
      plus('a', 2),
      { id: 's', body: { kind: 'set', values: { homeScore: 9 } } },
    ];
    expect(foldGame(defaultScoreboard, [...log, voids('v', 'a')]).homeScore).toBe(9);
  });

  it('rules that read the state fold again: a voided tennis point undoes the game it won', () => {
    const start = { ...defaultScoreboard, sportID: 8, maxSets: 3, gamePeriod: 'Set 1' };
    const point = (id: string): LoggedEvent => ({
      id,
      body: { kind: 'tennisPoint', team: 'away' },
    });
    const log = ['p1', 'p2', 'p3', 'p4'].map(point);
    expect(foldGame(start, log)).toMatchObject({ awayScoreGames: 1, awaySet1: 1 });
    expect(foldGame(start, [...log, voids('v', 'p1')])).toMatchObject({
      awayScoreGames: 0,
      awayScorePointsTennis: '40',
    });
  });
});

describe('held events: made in a period that had ended when they arrived', () => {
  const volley = { ...defaultScoreboard, sportID: 6, gamePeriod: 'Set 1' };
  const ace = (id: string, team: 'home' | 'away' = 'home', held = false): LoggedEvent => ({
    id,
    body: { kind: 'score', team, by: 1 },
    ...(held ? { held } : {}),
  });
  const won = (id: string, team: 'home' | 'away'): LoggedEvent => ({
    id,
    body: { kind: 'setWon', team },
  });
  const resolve = (
    id: string,
    events: string[],
    apply: 'period' | 'now' | 'discard',
    before?: string,
  ): LoggedEvent => ({
    id,
    body: { kind: 'resolve', events, apply, ...(before ? { before } : {}) },
  });
  /** Set 2 won by home 3–1 (ended by event 'w'), Set 3 under way at 1–0 away. */
  const game: LoggedEvent[] = [
    won('w1', 'away'),
    ace('a'),
    ace('b'),
    ace('c', 'away'),
    ace('d'),
    won('w', 'home'),
    ace('e', 'away'),
  ];
  const late = [ace('h1', 'away', true), ace('h2', 'away', true), ace('h3', 'away', true)];

  it('holds an intent made in a set that is no longer the game’s, in per-set sports only', () => {
    const set3 = { ...volley, gamePeriod: 'Set 3' };
    const score = { kind: 'score', team: 'home', by: 1 } as const;
    expect(isHeld(set3, score, 'Set 2')).toBe(true);
    expect(isHeld(set3, score, 'set 3 ')).toBe(false);
    expect(isHeld({ ...set3, gamePeriod: 'Final' }, score, 'Set 3')).toBe(true);
    expect(isHeld({ ...set3, sportID: 8 }, { kind: 'tennisPoint', team: 'home' }, 'Set 2')).toBe(
      true,
    );
    // Basketball's score runs on across quarters: a late tap counts on the total.
    expect(isHeld({ ...defaultScoreboard, sportID: 2, gamePeriod: 'Q3' }, score, 'Q2')).toBe(false);
    // A label the rules do not know, or none (the phone apps), applies now.
    expect(isHeld(set3, score, 'Warm-up')).toBe(false);
    expect(isHeld(set3, score, 'Starting Soon')).toBe(false);
    expect(isHeld(set3, score, undefined)).toBe(false);
    // Absolute edits and taking back are never held.
    expect(isHeld(set3, { kind: 'set', values: { homeScore: 1 } }, 'Set 2')).toBe(false);
    expect(isHeld(set3, { kind: 'undo' }, 'Set 2')).toBe(false);
  });

  it('a held event is not folded until decided; discarding keeps it out', () => {
    const log = [...game, ...late];
    const now = foldGame(volley, game);
    expect(now).toMatchObject({ gamePeriod: 'Set 3', homeScore: 0, awayScore: 1 });
    expect(foldGame(volley, log)).toEqual(now);
    expect(foldGame(volley, [...log, resolve('r', ['h1', 'h2', 'h3'], 'discard')])).toEqual(now);
  });

  it('applied now, they count where the decision stands in the log', () => {
    const log = [...game, ...late, resolve('r', ['h1', 'h2'], 'now'), ace('f')];
    expect(foldGame(volley, log)).toMatchObject({ homeScore: 1, awayScore: 3 });
  });

  it('applied to their period, they go before the event that ended it', () => {
    const home = [ace('h1', 'home', true), ace('h2', 'home', true), ace('h3', 'home', true)];
    const place = placeInPeriod(volley, [...game, ...home], home, 'Set 2');
    expect(place).toEqual({ before: 'w' });
    const decided = [...game, ...home, resolve('r', ['h1', 'h2', 'h3'], 'period', 'w')];
    // Set 3 is untouched; Set 2 ended 6–1 instead of 3–1, still home's.
    expect(foldGame(volley, decided)).toEqual(foldGame(volley, game));
    const end = foldSteps(volley, decided).find((s) => s.id === 'w');
    expect(end?.before).toMatchObject({ gamePeriod: 'Set 2', homeScore: 6, awayScore: 1 });
  });

  it('is not offered where it would change who was ahead when the period ended', () => {
    // Three away points turn Set 2's 3–1 for home into 3–4.
    expect(placeInPeriod(volley, [...game, ...late], late, 'Set 2')).toBeNull();
    // Two make it level: that changes who won it too.
    expect(placeInPeriod(volley, [...game, ...late], late.slice(0, 2), 'Set 2')).toBeNull();
    expect(placeInPeriod(volley, [...game, ...late], late.slice(0, 1), 'Set 2')).toEqual({
      before: 'w',
    });
    // A period the log never ended (Set 4) has nowhere to go.
    expect(placeInPeriod(volley, [...game, ...late], late, 'Set 4')).toBeNull();
  });

  it('a late set win is never placed in its set: it would end the set before its end', () => {
    const lateWin: LoggedEvent = { ...won('x', 'home'), held: true };
    expect(placeInPeriod(volley, [...game, lateWin], [lateWin], 'Set 2')).toBeNull();
  });

  it('tennis: a late point is placed only where the set and every later point stay put', () => {
    const start = { ...defaultScoreboard, sportID: 8, maxSets: 3, gamePeriod: 'Set 1' };
    const point = (id: string, team: 'home' | 'away', held = false): LoggedEvent => ({
      id,
      body: { kind: 'tennisPoint', team },
      ...(held ? { held } : {}),
    });
    // Home wins Set 1 6–0 (24 points), then one point of Set 2.
    const log = [
      ...Array.from({ length: 24 }, (_, i) => point(`p${i}`, 'home')),
      point('q', 'away'),
    ];
    expect(foldGame(start, log).gamePeriod).toBe('Set 2');
    // An away point before the last: 40–15, the last point still wins the game and the set.
    const one = [point('l1', 'away', true)];
    expect(placeInPeriod(start, [...log, ...one], one, 'Set 1')).toEqual({ before: 'p23' });
    // Three away points make it deuce: the last point no longer ends Set 1.
    const three = [point('l1', 'away', true), point('l2', 'away', true), point('l3', 'away', true)];
    expect(placeInPeriod(start, [...log, ...three], three, 'Set 1')).toBeNull();
  });
});
