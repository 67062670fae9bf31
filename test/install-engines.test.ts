import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// A newcomer's `npm ci` on the oldest Node the README names prints no EBADENGINE warning: every
// locked package admits it. npm checks engines against --node-version, so the check holds
// whichever Node runs the tests; --dry-run reads the lock and installs nothing.

const ROOT = path.resolve(import.meta.dirname, '..');
const MANIFESTS = [
  'package.json',
  'package-lock.json',
  'apps/server/package.json',
  'apps/web/package.json',
  'packages/shared/package.json',
];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-engines-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('npm ci on the Node the README names', () => {
  it('warns of no engine', async () => {
    const { engines } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const oldest = /^>=\s*(\d+)\.(\d+)$/.exec(engines.node);
    expect(oldest, `engines.node is "${engines.node}"`).not.toBeNull();
    const nodeVersion = `${oldest![1]}.${oldest![2]}.0`;
    for (const file of MANIFESTS) {
      fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(work, file));
    }
    const { stdout, stderr } = await promisify(execFile)(
      'npm',
      [
        'ci',
        '--dry-run',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        `--node-version=${nodeVersion}`,
      ],
      { cwd: work, env: { ...process.env, npm_config_loglevel: 'warn' } },
    );
    expect(`${stdout}${stderr}`).toMatch(/added \d+ packages/);
    const warnings = `${stderr}`.split('\n').filter((l) => /EBADENGINE/.test(l));
    expect(warnings, warnings.join('\n')).toEqual([]);
  }, 120_000);
});
