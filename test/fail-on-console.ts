import { afterEach, beforeEach, vi } from 'vitest';

// A test that makes code log console.error has met an error nobody asserted on: fail it, so a
// swallowed failure cannot pass as green. A test that expects such a log asserts on it with
// its own spy (vi.spyOn(console, 'error')) — the one installed here is then replaced.
let logged: unknown[][] = [];

beforeEach(() => {
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (logged.length) {
    const first = logged[0]!.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ');
    throw new Error(`console.error was called ${logged.length} time(s) in this test: ${first}`);
  }
});
