import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import { test, expect, unique, BASE, API, apiAs, signIn, screenshot } from './fixtures.ts';
import { createGroup, createTeam, rosterOf } from './seed.ts';

// The sideline play counter on a phone: one hand, big targets.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

/**
 * A coach's team sheet: six players and an 'Offense' group whose lineup (location 1) is the
 * first four; Ed is on its sideline (2), Flo not in it.
 */
async function teamWithLineup(request: APIRequestContext, coach: string) {
  const phone = await apiAs(request, coach);
  const teamName = unique('Eagles');
  const teamKey = await createTeam(phone, {
    teamName,
    teamNotes: 'U10',
    players: ['1 Ann Lee', '2 Bo Ray', '3 Cy Dee', '4 Di Fox', '5 Ed Poe', '6 Flo Wu'],
  });
  const key = Object.fromEntries((await rosterOf(phone, teamKey)).map((p) => [p.jersey, p.key]));
  await createGroup(phone, teamKey, 'Offense', [
    [key['1']!, 1],
    [key['2']!, 1],
    [key['3']!, 1],
    [key['4']!, 1],
    [key['5']!, 2],
  ]);
  return { teamKey, teamName, call: phone.call };
}

const tile = (page: Page, list: 'On Field' | 'Sideline', name: string) =>
  page
    .getByRole('region', { name: new RegExp(`^${list}`) })
    .getByRole('button', { name: new RegExp(name) });

async function csvOf(download: Promise<Download>): Promise<string[][]> {
  const file = await download;
  const text = fs.readFileSync((await file.path())!, 'utf8');
  expect(text.startsWith('\ufeff')).toBe(true);
  return parse(text, { bom: true });
}

async function bothWidths(page: Page, name: string) {
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    // Nothing scrolls the page sideways on a small phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

test('a coach counts a game on the sideline; a parent follows it live until the link is revoked', async ({
  page,
  request,
  browser,
  allowConsoleError,
}) => {
  test.setTimeout(120_000);
  const coach = unique('Coach');
  const { teamKey, teamName } = await teamWithLineup(request, coach);
  await signIn(page, coach);

  // Start from the team sheet.
  await page.goto(`${BASE}/teamsheetedit/${teamKey}`);
  await page.getByRole('link', { name: 'Count plays' }).click();
  await expect(page.getByRole('heading', { name: 'New play count' })).toBeVisible();
  await expect(page.getByLabel('Team')).toHaveValue(teamKey);
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  await expect(page.getByLabel('Game date')).toHaveValue(today);
  await page.getByLabel('Game name').fill('Eagles at Hawks');
  await page.getByLabel('Minimum plays per player').fill('7');
  await page.getByLabel('Players on the field per snap').fill('4');
  await bothWidths(page, 'playcount-new');
  await page.getByRole('button', { name: 'Start counting' }).click();
  await expect(page).toHaveURL(/\/playcount\/[A-Za-z0-9_-]+\/count$/);
  const gameKey = page.url().split('/').at(-2)!;
  await expect(page.getByRole('status').first()).toContainText('0 snaps counted, all saved');

  // Share it with parents before the game.
  await page.getByRole('link', { name: 'Details & sharing' }).click();
  await page.getByRole('button', { name: 'Share a live link' }).click();
  const shareUrl = await page.getByLabel('Shared link').inputValue();
  expect(shareUrl).toMatch(new RegExp(`${BASE}/playcountshare/[A-Za-z0-9_-]{20}$`));
  const shareKey = shareUrl.split('/').at(-1)!;
  const parentContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const parent = await parentContext.newPage();
  await parent.goto(shareUrl);
  // The page writes the day as the reader's locale does; the CSV below keeps the ISO day.
  const shownDay = await parent.evaluate(
    (day) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${day}T00:00:00Z`),
      ),
    today,
  );
  await expect(parent.getByRole('heading', { level: 1 })).toHaveText(`${shownDay} Eagles at Hawks`);
  const parentRow = (name: string) => parent.getByRole('row').filter({ hasText: name });
  await expect(parentRow('Ann Lee')).toContainText('0');
  await page.getByRole('link', { name: 'Count plays' }).click();

  // Load the lineup, then swap Di out and Ed in (the warning shows while one is missing).
  await page.getByLabel('Lineup').selectOption({ label: 'Offense' });
  await page.getByRole('button', { name: 'Load' }).click();
  const onField = page.getByRole('region', { name: /^On Field/ });
  await expect(onField.getByRole('button')).toHaveCount(4);
  await tile(page, 'On Field', 'Di Fox').click();
  await expect(page.getByText('3 on the field: 1 fewer than the 4 per snap.')).toBeVisible();
  await tile(page, 'Sideline', 'Ed Poe').click();
  await expect(page.getByText(/on the field: .* per snap/)).toHaveCount(0);
  await expect(onField.getByRole('button')).toHaveCount(4);
  await expect(tile(page, 'On Field', 'Ed Poe')).toBeVisible();

  const snapButton = page.getByRole('button', { name: /^Snap/ });
  const snaps = async (quarter: number, n: number) => {
    await page.getByRole('button', { name: `Q${quarter}`, exact: true }).click();
    for (let i = 0; i < n; i++) await snapButton.click();
  };
  // Q1 and Q2: Ann, Bo, Cy, Ed.
  await snaps(1, 3);
  await snaps(2, 3);
  // The parent sees the counts move while the coach counts.
  await expect(parentRow('Ed Poe')).toContainText('6');
  // Q3 and Q4: Di back in for Ed.
  await tile(page, 'On Field', 'Ed Poe').click();
  await tile(page, 'Sideline', 'Di Fox').click();
  await snaps(3, 3);
  await snaps(4, 3);
  await expect(page.getByRole('status').first()).toContainText('12 snaps counted, all saved');
  await page.getByRole('button', { name: 'Undo snap 12' }).click();
  await expect(page.getByRole('status').first()).toContainText('11 snaps counted, all saved');

  // Counts per player, and how many plays those below the minimum still need.
  const expected: [string, number, number][] = [
    ['Ann Lee', 11, 0],
    ['Bo Ray', 11, 0],
    ['Cy Dee', 11, 0],
    ['Di Fox', 5, 2],
    ['Ed Poe', 6, 1],
    ['Flo Wu', 0, 7],
  ];
  for (const [name, plays, needs] of expected) {
    const button = page.getByRole('button', { name: new RegExp(`^#\\d ${name}, `) });
    await expect(button.getByTestId('plays')).toHaveText(String(plays));
    if (needs) await expect(button).toContainText(`needs ${needs}`);
    else await expect(button).not.toContainText('needs');
  }
  await bothWidths(page, 'playcount-sideline');

  // The parent's view has the same numbers, names as the sheet allows (no privacy set).
  for (const [name, plays] of expected) {
    await expect(parentRow(name).locator('.pc-plays')).toHaveText(String(plays));
  }
  await bothWidths(parent, 'playcount-shared');

  // Finished on the counter: the parent's link says final, not live; no more snaps are taken.
  await expect(parent.getByText('Live play count')).toBeVisible();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(parent.getByText('Final play count')).toBeVisible();
  await expect(parent.getByText('Live play count')).toHaveCount(0);
  await expect(page.getByText('Finished: the shared link shows these as final.')).toBeVisible();
  await expect(snapButton).toBeDisabled();
  await bothWidths(page, 'playcount-finished');
  await bothWidths(parent, 'playcount-shared-final');

  // After the game: the detail screen and its CSV.
  await page.getByRole('link', { name: 'Details & sharing' }).click();
  await expect(page.getByText('3 players are below 7 plays.')).toBeVisible();
  const summary = page.getByRole('table').nth(1);
  await expect(summary.getByRole('row').filter({ hasText: 'Offense' })).toHaveText(
    /Offense\s*3\s*3\s*3\s*2/,
  );
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  expect(await csvOf(download)).toEqual([
    ['Jersey', 'Player', 'CountedPlays', 'MetMinimum'],
    ...expected.map(([name, plays], i) => [
      String(i + 1),
      name,
      String(plays),
      plays >= 7 ? 'Yes' : 'No',
    ]),
  ]);
  await bothWidths(page, 'playcount-detail-share');

  // The season view of the team sums it (one game here) and exports it.
  await page.getByRole('link', { name: 'Season' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${teamName}: season`);
  const seasonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const season = await csvOf(seasonDownload);
  expect(season[0]).toEqual([
    'Jersey',
    'Player',
    'Games',
    'TotalPlays',
    'GamesBelowMinimum',
    `${today} Eagles at Hawks`,
  ]);
  expect(season.slice(1)).toEqual(
    expected.map(([name, plays], i) => [
      String(i + 1),
      name,
      '1',
      String(plays),
      plays >= 7 ? '0' : '1',
      String(plays),
    ]),
  );
  await bothWidths(page, 'playcount-season');

  // Revoking the link closes the parent's open view, and the link answers not-found.
  await page.goto(`${BASE}/playcount/${gameKey}`);
  await page.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(page.getByRole('button', { name: 'Share a live link' })).toBeVisible();
  await expect(parent.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(parent.getByRole('table')).toHaveCount(0);
  expect((await parent.request.get(`${API}/playcount-shares/${shareKey}`)).status()).toBe(404);
  // A revoked link's page answers 404, which the browser logs.
  allowConsoleError(
    /playcountshare\/[^:]*: Failed to load resource: .* 404/,
    'the link is revoked',
  );
  await parent.goto(shareUrl);
  await expect(parent.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await parentContext.close();
});

test('snaps counted offline arrive exactly once when the network returns', async ({
  page,
  request,
  context,
  allowConsoleError,
}) => {
  test.setTimeout(90_000);
  allowConsoleError(
    /ERR_INTERNET_DISCONNECTED|ERR_FAILED|WebSocket/,
    'the test cuts the network (and one answer) on purpose; the outbox retries',
  );
  const coach = unique('Coach');
  const { teamKey, call } = await teamWithLineup(request, coach);
  const { gameKey } = (await call('POST', '/playcounts', {
    teamKey,
    gameName: 'Away game',
    gameDate: '2026-10-03',
  })) as { gameKey: string };
  const stored = async () =>
    (await call('GET', `/playcounts/${gameKey}`)) as {
      snaps: { snapCount: number; quarter: number }[];
      roster: { playerName: string; playCount: number }[];
    };
  await signIn(page, coach);
  await page.goto(`${BASE}/playcount/${gameKey}/count`);
  await page.getByLabel('Lineup').selectOption({ label: 'Offense' });
  await page.getByRole('button', { name: 'Load' }).click();
  const snapButton = page.getByRole('button', { name: /^Snap/ });
  const status = page.getByRole('status').first();

  // One snap online whose answer is lost on the way back: the server counted it, the page
  // did not hear so, and its retry (same Idempotency-Key) must not count it again.
  let lost = false;
  await page.route(`**${API}/playcounts/${gameKey}/snaps`, async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fetch();
    await route.abort('failed');
  });
  await snapButton.click();
  await expect(status).toContainText('1 snap counted, all saved');
  expect((await stored()).snaps).toHaveLength(1);

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Q2', exact: true }).click();
  for (let i = 0; i < 4; i++) await snapButton.click();
  await expect(status).toContainText('Offline.');
  await expect(status).toContainText('4 snaps waiting to be sent');
  // Counted on the phone already, not on the server.
  await expect(page.getByRole('button', { name: /^#1 Ann Lee, / }).getByTestId('plays')).toHaveText(
    '5',
  );
  expect((await stored()).snaps).toHaveLength(1);
  await screenshot(page, 'playcount-sideline-offline-390');

  await context.setOffline(false);
  await expect(status).toContainText('5 snaps counted, all saved', { timeout: 30_000 });
  const game = await stored();
  expect(game.snaps.map((s) => [s.snapCount, s.quarter])).toEqual([
    [1, 1],
    [2, 2],
    [3, 2],
    [4, 2],
    [5, 2],
  ]);
  expect(game.roster.find((p) => p.playerName === 'Ann Lee')?.playCount).toBe(5);
  expect(game.roster.find((p) => p.playerName === 'Ed Poe')?.playCount).toBe(0);
});
