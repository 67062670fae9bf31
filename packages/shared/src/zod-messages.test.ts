import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { minPlaysSchema } from './playcount.ts';
import { plainIssueMessage } from './zod-messages.ts';

// Passed per parse, not installed with z.config: unit files share their worker's modules.
const messageOf = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value, { error: plainIssueMessage }).error?.issues[0]?.message;

describe("plain words for zod's own messages", () => {
  it('a number below its minimum, as the play count minimum refuses -4', () => {
    expect(messageOf(minPlaysSchema, -4)).toBe('Use 0 or more.');
    expect(messageOf(z.number().positive(), 0)).toBe('Use a number above 0.');
  });

  it('a number above its maximum, or not whole', () => {
    expect(messageOf(minPlaysSchema, 1001)).toBe('Use 1000 or less.');
    expect(messageOf(minPlaysSchema, 2.5)).toBe('Use a whole number.');
    expect(messageOf(z.number(), 'seven')).toBe('Use a number.');
  });

  it('text too short or too long, counted in characters', () => {
    expect(messageOf(z.string().min(1), '')).toBe('Please fill this in.');
    expect(messageOf(z.string().min(3), 'ab')).toBe('Use at least 3 characters.');
    expect(messageOf(z.string().max(1), 'ab')).toBe('Use at most 1 character.');
  });

  it('lists', () => {
    expect(messageOf(z.array(z.string()).max(20), Array(21).fill('a'))).toBe(
      'Use at most 20 items.',
    );
  });

  it("leaves a schema's own wording alone", () => {
    expect(messageOf(z.number().min(0, 'No negative plays'), -1)).toBe('No negative plays');
  });

  it('no message it writes is a programmer\'s ("expected", ">=")', () => {
    for (const [schema, value] of [
      [minPlaysSchema, -1],
      [minPlaysSchema, 5000],
      [z.string().max(2), 'abc'],
      [z.number().int(), 'x'],
    ] as const) {
      expect(messageOf(schema, value)).not.toMatch(/expected|>=|<=|Too (small|big)/);
    }
  });
});
