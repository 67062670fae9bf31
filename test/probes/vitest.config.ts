import { defineConfig } from 'vitest/config';

// The probe run of test/fail-on-console.test.ts: the repository's console guard, on a probe file.
export default defineConfig({
  test: { include: ['*.probe.ts'], setupFiles: ['../fail-on-console.ts'] },
});
