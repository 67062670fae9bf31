import type { Browser, Page } from '@playwright/test';
import { expect, unique, BASE } from './fixtures.ts';

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

export async function viewerOf(browser: Browser, gameKey: string): Promise<Page> {
  const viewer = await (await browser.newContext({ viewport: PHONE })).newPage();
  await viewer.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await expect(board(viewer)).toBeVisible();
  return viewer;
}

/** Every change made on the scorekeeper has reached the server. */
export const saved = (page: Page) => expect(status(page)).toHaveText('All changes saved');
