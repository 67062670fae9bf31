import { describe, expect, it } from 'vitest';
import './zod-jitless.ts';
import { z } from 'zod';
import { plainIssueMessage } from '@sagan/shared/zod-messages';

describe('zod-jitless', () => {
  it('is what zod reads: jitless parsing and plain messages, set without importing zod', () => {
    expect(z.config().jitless).toBe(true);
    expect(z.config().customError).toBe(plainIssueMessage);
    const r = z.object({ name: z.string().min(2) }).safeParse({ name: 'a' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Use at least 2 characters.');
  });
});
