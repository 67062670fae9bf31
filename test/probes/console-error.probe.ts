import { expect, it } from 'vitest';

// Run only by test/fail-on-console.test.ts: a test that passes its assertions but logs an
// error must still fail.
it('logs an error and asserts something true', () => {
  console.error('something went wrong and was swallowed');
  expect(1 + 1).toBe(2);
});
