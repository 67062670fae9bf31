import type { Browser, Page } from '@playwright/test';
import { expect, unique, API, BASE } from './fixtures.ts';

// Shared by the scorekeeper specs: the phone, the New game form, taps, and a viewer.

export const PHONE = { width: 390, height: 844 };

export const board = (page: Page) => page.getByRole('region', { name: 'Scoreboard' });
export const fact = (page: Page, label: string) =>
  board(page).locator('.board-fact').filter({ hasText: label }).locator('dd');
export const status = (page: Page) => page.locator('.sk-status');

export async function tap(page: Page, ...names: string[]): Promise<void> {
  for (const name of names) await page.getByRole('button', { name, exact: true }).click();
}

export async function newGame(
  page: Page,
  sport: string,
  extra?: (page: Page) => Promise<void>,
): Promise<{ gameKey: string; name: string }> {
  const name = unique(`${sport} game`);
  await page.goto(`${BASE}/newgame`);
  await page.getByLabel('Sport').selectOption({ label: sport });
  await page.getByLabel('Game name').fill(name);
  await page.getByLabel('Home team').fill('Lions');
  await page.getByLabel('Away team').fill('Tigers');
  await extra?.(page);
  await page.getByRole('button', { name: 'Create and start scoring' }).click();
  await expect(page).toHaveURL(/\/scoregame\/[\w-]+$/);
  await expect(status(page)).toHaveText('All changes saved');
  return { gameKey: page.url().split('/').pop()!, name };
}

export async function viewerOf(
  browser: Browser,
  gameKey: string,
  { movableClock = false } = {},
): Promise<Page> {
  const viewer = await (await browser.newContext({ viewport: PHONE })).newPage();
  // A clock that runs with real time but that a test can move on (viewer.clock.fastForward).
  if (movableClock) await viewer.clock.install();
  await viewer.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await expect(board(viewer)).toBeVisible();
  return viewer;
}

/** Every change made on the scorekeeper has reached the server. */
export const saved = (page: Page) => expect(status(page)).toHaveText('All changes saved');

/**
 * A new team sheet of the signed-in scorekeeper's with one player, linked to a team in the
 * scorekeeper's "Who scored" panel. Published, the public board names its players.
 */
export async function linkSheet(
  page: Page,
  team: 'Lions' | 'Tigers',
  player: { jersey: string; playerName: string },
  { published }: { published: boolean },
): Promise<{ teamKey: string; sheetName: string }> {
  const headers = { 'x-sagan-request': '1' };
  const sheetName = unique(`${team} sheet`);
  const made = await page.request.post(`${API}/teams`, { headers });
  const { teamKey } = (await made.json()) as { teamKey: string };
  const named = await page.request.patch(`${API}/teams/${teamKey}`, {
    headers,
    data: { teamName: sheetName, teamNotes: '' },
  });
  expect(named.status()).toBe(200);
  const added = await page.request.put(`${API}/teams/${teamKey}/players/-1`, {
    headers,
    data: { ...player, playerNotes: '' },
  });
  expect(added.status()).toBe(200);
  if (published) {
    const shown = await page.request.post(`${API}/teams/${teamKey}/publish`, { headers });
    expect(shown.status()).toBe(200);
  }
  await page.locator('summary', { hasText: 'Who scored' }).click();
  await page.getByRole('combobox', { name: team }).selectOption({ label: sheetName });
  // The home team's link comes first.
  const link = page.locator('.sk-sheet-link').nth(team === 'Lions' ? 0 : 1);
  await link.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Linked' })).toBeVisible();
  return { teamKey, sheetName };
}
