import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countOf } from './count-of.ts';
import { isStorableText, safeText, UNSTORABLE_TEXT_MESSAGE } from './text.ts';
import {
  gameCommentInputSchema,
  scorekeeperMessageSchema,
  scoreboardFieldsSchema,
} from './scoreboard.ts';
import { playerInputSchema, teamInputSchema, groupNameSchema } from './teamsheet.ts';
import { bulkUploadSchema } from './teamsheet-schemas.ts';
import { playCountGameInputSchema } from './playcount.ts';
import { localSignInSchema } from './auth.ts';

const NUL = '\u0000';
const HIGH = '\uD83D'; // first half of 😀
const LOW = '\uDE00'; // second half

describe('storable text', () => {
  it('accepts ordinary and unusual but valid text', () => {
    for (const s of [
      '',
      'Ann Lee',
      'Zoë Ōkubo',
      '😀 ⚽️ 👨‍👩‍👧',
      'ﷺ',
      '\u200B\uFEFF',
      'a\tb\nc',
      '\u{10FFFF}',
    ]) {
      expect(isStorableText(s), JSON.stringify(s)).toBe(true);
    }
  });

  it('refuses NUL and lone surrogates wherever they are', () => {
    for (const s of [
      NUL,
      `a${NUL}b`,
      HIGH,
      LOW,
      `x${HIGH}`,
      `${LOW}x`,
      `${LOW}${HIGH}`,
      `😀${HIGH}`,
    ]) {
      expect(isStorableText(s), JSON.stringify(s)).toBe(false);
    }
  });

  it('keeps the chained checks and says what is wrong', () => {
    const name = safeText().trim().min(1).max(5);
    expect(name.parse('  ab ')).toBe('ab');
    expect(name.safeParse('abcdefg').success).toBe(false);
    const refused = z.object({ name }).safeParse({ name: `a${NUL}` });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['name'],
      message: UNSTORABLE_TEXT_MESSAGE,
    });
  });

  // Every text a client sends for storage goes through it (the fuzzer found them as 500s).
  it.each([
    ['sign-in name', localSignInSchema, (t: string) => ({ displayName: t })],
    ['scoreboard text', scoreboardFieldsSchema.partial(), (t: string) => ({ gamePeriod: t })],
    ['scorekeeper message', scorekeeperMessageSchema, (t: string) => ({ scoreKeeperMessage: t })],
    [
      'comment picture',
      gameCommentInputSchema,
      (t: string) => ({ gameComment: 'Goal', imageURL: `https://example.org/${t}.jpg` }),
    ],
    [
      'player',
      playerInputSchema,
      (t: string) => ({ jersey: '7', playerName: 'Ann', playerNotes: t }),
    ],
    ['team', teamInputSchema, (t: string) => ({ teamName: t, teamNotes: '' })],
    ['group', groupNameSchema, (t: string) => ({ groupName: t })],
    ['bulk upload', bulkUploadSchema, (t: string) => ({ text: t })],
    [
      'play count',
      playCountGameInputSchema,
      (t: string) => ({ gameName: t, gameDate: 'today', roster: [], snaps: [] }),
    ],
    [
      'play count snap player key',
      playCountGameInputSchema,
      (t: string) => ({
        gameName: 'G',
        gameDate: 'today',
        roster: [],
        snaps: [{ snapCount: 1, groupName: 'O', quarter: 1, [t]: true }],
      }),
    ],
  ] as const)('%s refuses unstorable text and accepts a normal one', (_what, schema, body) => {
    expect(schema.safeParse(body('Go 😀')).success).toBe(true);
    for (const bad of [`Go${NUL}`, `Go${HIGH}`, `${LOW}Go`]) {
      const r = schema.safeParse(body(bad));
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues.map((i) => i.message)).toContain(UNSTORABLE_TEXT_MESSAGE);
    }
  });
});

describe('counts in words', () => {
  it('says "1 play" and "3 plays", never "1 plays"', () => {
    expect(countOf(1, 'play')).toBe('1 play');
    expect(countOf(0, 'play')).toBe('0 plays');
    expect(countOf(3, 'game')).toBe('3 games');
    expect(countOf(1, 'person', 'people')).toBe('1 person');
    expect(countOf(2, 'person', 'people')).toBe('2 people');
  });
});
