import { test, expect, signIn, unique, BASE, screenshot, openPage } from './fixtures.ts';
import { board, newGame, PHONE } from './scorekeeper-helpers.ts';

// A game created ahead on the New game form is listed under Upcoming on the dashboard, its
// start written in the viewer's own time zone, and stays out of Current Games.

test.use({ viewport: PHONE, hasTouch: true, timezoneId: 'America/New_York', locale: 'en-US' });

test('a game scheduled on the New game form is under Upcoming with its start', async ({ page }) => {
  await signIn(page, unique('Keeper'));
  // Two days ahead at 18:30, on the form's own clock (New York, as the browser is told).
  const day = new Date(Date.now() + 2 * 86_400_000);
  const ymd = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(day);
  const shown = `${new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${ymd}T12:00:00Z`))}, 6:30 PM`;

  const { name, gameKey } = await newGame(page, 'Soccer', async (p) => {
    await p.getByLabel('Starts').fill(`${ymd}T18:30`);
  });

  await openPage(page, '/');
  const card = page
    .getByRole('list', { name: 'Upcoming' })
    .getByRole('link')
    .filter({ hasText: name });
  await expect(card).toContainText('Starting Soon');
  await expect(card.locator('.start-time')).toHaveText(shown);
  await expect(
    page.getByRole('list', { name: 'Current Games' }).getByRole('link').filter({ hasText: name }),
  ).toHaveCount(0);
  await screenshot(page, 'scheduled-dashboard-390');

  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await expect(board(page).locator('.board-start .start-time')).toHaveText(shown);
  await screenshot(page, 'scheduled-board-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'scheduled-board-1280');
  await openPage(page, '/');
  await expect(card.locator('.start-time')).toHaveText(shown);
  await screenshot(page, 'scheduled-dashboard-1280');
});
