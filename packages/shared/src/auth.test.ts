import { describe, expect, it } from 'vitest';
import { displayNameSchema, menuName } from './auth.ts';
import { clientMessageSchema, serverMessageSchema } from './realtime.ts';

describe('menu name (SPEC §2)', () => {
  it("shows the display name, or 'Unknown Name' when missing", () => {
    expect(menuName({ uid: 'u', displayName: 'Ann' })).toBe('Ann');
    expect(menuName({ uid: 'u', displayName: null })).toBe('Unknown Name');
    expect(menuName({ uid: 'u', displayName: '  ' })).toBe('Unknown Name');
  });

  it('trims display names and refuses empty or very long ones', () => {
    expect(displayNameSchema.parse('  Ann ')).toBe('Ann');
    expect(displayNameSchema.safeParse('   ').success).toBe(false);
    expect(displayNameSchema.safeParse('x'.repeat(61)).success).toBe(false);
  });
});

describe('realtime messages', () => {
  it('accepts subscribe with an optional resume point and refuses odd topics', () => {
    expect(
      clientMessageSchema.parse({ type: 'subscribe', topic: 'game:abc', sinceSeq: 3 }),
    ).toEqual({
      type: 'subscribe',
      topic: 'game:abc',
      sinceSeq: 3,
    });
    expect(
      clientMessageSchema.safeParse({ type: 'subscribe', topic: 'game:<script>' }).success,
    ).toBe(false);
    expect(
      clientMessageSchema.safeParse({ type: 'subscribe', topic: 'game:a', sinceSeq: -1 }).success,
    ).toBe(false);
    expect(clientMessageSchema.safeParse({ type: 'explode' }).success).toBe(false);
  });

  it('parses every server message kind', () => {
    expect(
      serverMessageSchema.parse({ type: 'state', topic: 't', seq: 1, data: { a: 1 } }).type,
    ).toBe('state');
    expect(serverMessageSchema.parse({ type: 'current', topic: 't', seq: 1 }).type).toBe('current');
    expect(serverMessageSchema.parse({ type: 'reconnect', afterMs: 500 }).type).toBe('reconnect');
    expect(serverMessageSchema.safeParse({ type: 'state', topic: 't', seq: 'x' }).success).toBe(
      false,
    );
  });
});
