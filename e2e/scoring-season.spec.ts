import { readFile } from 'node:fs/promises';
import { test, expect, BASE, screenshot, openPage } from './fixtures.ts';
import { linkSheet, newGame, PHONE, saved, tap, viewerOf } from './scorekeeper-helpers.ts';

// A team sheet's season points on a phone: a game linked to the sheet, two goals named to a
// player on the scorekeeper, and the owner's season view of the sheet totals them. The sheet
// is not published, so a fan's board shows the scorer's number and no name; the owner's, the name.

test.use({ viewport: PHONE, hasTouch: true });

test('goals named on the scorekeeper add up on the sheet’s season points', async ({
  signedInPage: page,
  browser,
}) => {
  const { gameKey, name } = await newGame(page, 'Soccer');
  const { teamKey, sheetName } = await linkSheet(
    page,
    'Lions',
    { jersey: '4', playerName: 'Ann Lee' },
    { published: false },
  );
  await tap(page, 'Lions +1', 'Ann Lee, #4, scored', 'Lions +1', 'Ann Lee, #4, scored');
  await saved(page);
  const fan = await viewerOf(browser, gameKey);
  await expect(
    fan.getByRole('table', { name: 'Lions' }).getByRole('row', { name: '4 Player 2' }),
  ).toBeVisible();
  await expect(fan.getByText('Names show once the team')).toBeVisible();
  await screenshot(fan, 'box-score-unpublished-390');
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await expect(
    page.getByRole('table', { name: 'Lions' }).getByRole('row', { name: '4 Ann Lee 2' }),
  ).toBeVisible();

  await openPage(page, `/teamsheetedit/${teamKey}`);
  await screenshot(page, 'scoring-season-sheet-390');
  await page.getByRole('link', { name: 'Season points' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${sheetName}: season points`);
  const table = page.getByRole('table');
  // Totals, then the game's own column, headed by the game and linked to its board.
  await expect(table.getByRole('row', { name: `4 Ann Lee 2 1 2` })).toBeVisible();
  await expect(table.getByRole('link', { name })).toHaveAttribute(
    'href',
    new RegExp(`/viewscoreboard/${gameKey}$`),
  );
  await expect(page.getByRole('list').filter({ hasText: name })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${sheetName}-Season-Points.csv`);
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv.split('\r\n').slice(0, 2)).toEqual([
    `\ufeffJersey,Player,Games,Points,${name}`,
    '4,Ann Lee,1,2,2',
  ]);
  await screenshot(page, 'scoring-season-390');
  await page.setViewportSize({ width: 320, height: 700 });
  await screenshot(page, 'scoring-season-320');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'scoring-season-1280');
});
