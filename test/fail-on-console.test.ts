import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const probes = fileURLToPath(new URL('./probes/', import.meta.url));

describe('the console guard every vitest project loads', { timeout: 60_000 }, () => {
  it('fails a test that logs console.error, though its assertions pass', async () => {
    const run = promisify(execFile)('npx', ['vitest', 'run', '--root', probes], {
      env: { ...process.env, CI: 'true' },
    });
    const failure = await run.then(
      () => null,
      (err: { code?: number; stdout?: string; stderr?: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(`${failure?.stdout}${failure?.stderr}`).toContain('console.error was called 1 time(s)');
  });
});
