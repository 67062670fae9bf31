import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, BASE, screenshot } from './fixtures.ts';
import { SAMPLE, sampleExport } from '../apps/server/src/import/sample-export.ts';

// A sample export (covering every SPEC §7 path) is imported with the real
// command, then a server on that data serves the imported game, the team sheet under its old
// publishedAsKey, and the play count to the imported user.

const root = path.resolve(import.meta.dirname, '..');
const PORT = Number(process.env.E2E_PORT ?? 4311) + 1000;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const work = path.join(root, '.tmp', `ecosystem-${PORT}`);
const OWNER = 'Imported Coach';
/** routes/auth.ts: local sign-in's uid for a display name. */
const localUid = (name: string) =>
  `local-${crypto.createHash('sha256').update(name.toLowerCase()).digest('hex').slice(0, 20)}`;

/** The embedded database, whatever the caller's environment says. */
function embeddedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return env;
}

function runImport(...args: string[]) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/import.ts'), ...args],
    { cwd: root, encoding: 'utf8', env: embeddedEnv() },
  );
}

let server: ChildProcess | undefined;

test.describe.configure({ mode: 'serial' });
test.use({
  allowConsoleErrors: [
    {
      match: /firebasestorage\.example\/.*ERR_NAME_NOT_RESOLVED/,
      reason:
        'the imported sample keeps Firebase photo URLs, on a made-up host no name server knows',
    },
  ],
});

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  fs.writeFileSync(path.join(work, 'export.json'), JSON.stringify(sampleExport()));
  // The exported Google uid becomes the uid local sign-in gives 'Imported Coach' (docs/import.md).
  fs.writeFileSync(
    path.join(work, 'uid-map.json'),
    JSON.stringify({ [SAMPLE.ownerUid]: localUid(OWNER) }),
  );
  const args = [
    path.join(work, 'export.json'),
    '--uid-map',
    path.join(work, 'uid-map.json'),
    '--data-dir',
    path.join(work, 'data'),
    '--report',
    path.join(work, 'report.json'),
  ];
  const first = runImport(...args);
  // The sample holds two records that cannot load: reported, exit code 3, the rest loaded.
  expect(first.stdout).toContain('Not loaded (2):');
  expect(first.stdout).toMatch(/comments\/-NxC2: gameComment/);
  expect(first.stdout).toMatch(
    /favoriteScoreboards\/-NxMissingGame: the game is not in the export/,
  );
  expect(first.stdout).toMatch(/games\s+2 new/);
  expect(first.status).toBe(3);
  const report = JSON.parse(fs.readFileSync(path.join(work, 'report.json'), 'utf8'));
  expect(report.notLoaded).toHaveLength(2);
  // Idempotent: the second run changes nothing.
  const second = runImport(...args);
  expect(second.stdout).not.toMatch(/\s[1-9]\d* (new|updated)/);
  expect(second.stdout).toMatch(/games\s+0 new\s+0 updated\s+2 unchanged/);

  const log = fs.openSync(path.join(work, 'server.log'), 'w');
  server = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')],
    {
      cwd: root,
      stdio: ['ignore', log, log],
      env: {
        ...embeddedEnv(),
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(work, 'data'),
        DEMO: 'false',
        SIMULATE: 'false',
        RATE_LIMIT_FACTOR: '100',
        LOG_LEVEL: 'warn',
      },
    },
  );
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${ORIGIN}${BASE}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `the server on the imported data did not start:\n${fs.readFileSync(path.join(work, 'server.log'), 'utf8')}`,
  );
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('an imported game opens by its old key, for anyone', async ({ page }) => {
  await page.goto(`${ORIGIN}${BASE}/viewscoreboard/${SAMPLE.gameKey}`);
  await expect(page.getByText('Lions v Tigers').first()).toBeVisible();
  await expect(page.locator('.board')).toContainText('42');
  await expect(page.locator('.board')).toContainText('38');
  await expect(page.getByText('Great start')).toBeVisible();
  await expect(page.getByRole('link', { name: '#lions' })).toBeVisible();
  await screenshot(page, 'ecosystem-imported-game');
  await page.getByRole('link', { name: '#lions' }).click();
  await expect(page.getByRole('heading', { name: 'Scoreboards Tagged #lions' })).toBeVisible();
});

test('an imported team sheet opens by its old publishedAsKey', async ({ page }) => {
  await page.goto(`${ORIGIN}${BASE}/teamsheets/${SAMPLE.publishedAsKey}`);
  await expect(page.getByRole('heading', { name: 'Lions U10' })).toBeVisible();
  await expect(page.getByText('Ada Lovelace')).toBeVisible();
  await expect(page.getByText('Grace Hopper')).toBeVisible();
  await page.getByText('Ada Lovelace').click();
  await expect(page).toHaveURL(
    `${ORIGIN}${BASE}/teamsheets/${SAMPLE.publishedAsKey}/${SAMPLE.playerKeys[0]}`,
  );
  await expect(page.getByText('#7 - Ada Lovelace')).toBeVisible();
});

test('the imported user sees their play count, teams and bookmarks', async ({ page }) => {
  const res = await page.request.post(`${ORIGIN}${BASE}/api/auth/local`, {
    headers: { 'x-sagan-request': '1' },
    data: { displayName: OWNER },
  });
  expect((await res.json()).uid).toBe(localUid(OWNER));
  await page.goto(`${ORIGIN}${BASE}/playcounts`);
  await expect(page.getByText('Lions v Bears')).toBeVisible();
  await page.goto(`${ORIGIN}${BASE}/playcount/${SAMPLE.playCountKey}`);
  await expect(page.getByRole('heading', { name: /May 4, 2024.*Lions v Bears/ })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Ada Lovelace' })).toBeVisible();
  await screenshot(page, 'ecosystem-imported-playcount');
  await page.goto(`${ORIGIN}${BASE}/teamsheets`);
  await expect(page.getByText('Saturday league').first()).toBeVisible();
  await page.goto(`${ORIGIN}${BASE}/teamsheetedit/${SAMPLE.teamKey}`);
  await expect(page.getByRole('heading', { name: 'Lions U10' })).toBeVisible();
  await page.goto(`${ORIGIN}${BASE}/scoreboards`);
  await expect(page.getByText('Lions v Tigers').first()).toBeVisible();
});

test('a shared link of an imported game carries a preview card', async ({ request }) => {
  const html = await (
    await request.get(`${ORIGIN}${BASE}/viewscoreboard/${SAMPLE.gameKey}`)
  ).text();
  expect(html).toContain('<meta property="og:title" content="Lions 42 – 38 Tigers" />');
  expect(html).toContain('<meta name="twitter:card" content="summary" />');
  expect(html).toMatch(
    /<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/apps\/sagan\/icons\/icon-512\.png" \/>/,
  );
  const sheet = await request.get(`${ORIGIN}${BASE}/teamsheets/${SAMPLE.publishedAsKey}`);
  expect(await sheet.text()).toContain('<meta property="og:title" content="Lions U10" />');
  expect(sheet.headers()['x-robots-tag']).toBe('noindex');
});
