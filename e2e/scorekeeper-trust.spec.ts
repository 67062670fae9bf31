import type { Browser, Page } from '@playwright/test';
import { test, expect, unique, signIn, screenshot, BASE } from './fixtures.ts';
import { board, newGame, PHONE, saved, tap, viewerOf } from './scorekeeper-helpers.ts';

// Scores you can trust (DESIGN §10): two phones scoring one game under one account, each in its
// own browser context (its own device), and a viewer watching.

test.use({ viewport: PHONE, hasTouch: true });

/**
 * A new basketball game scored by one keeper on two phones: `page` (phone A, which made it) and
 * phone B, its own device, both with the game saved; and a viewer watching it.
 */
async function twoPhones(page: Page, browser: Browser) {
  const keeper = unique('Keeper');
  await signIn(page, keeper);
  const { gameKey } = await newGame(page, 'Basketball');
  const phoneB = await (await browser.newContext({ viewport: PHONE, hasTouch: true })).newPage();
  await signIn(phoneB, keeper);
  await phoneB.goto(`${BASE}/scoregame/${gameKey}`);
  await saved(phoneB);
  const viewer = await viewerOf(browser, gameKey);
  return { keeper, gameKey, phoneB, viewer };
}

test('scenario 1: Undo on one phone takes back its own tap, not the other phone’s', async ({
  page,
  browser,
}) => {
  const { keeper, phoneB, viewer } = await twoPhones(page, browser);

  // Phone A: Lions +2 six times (12).
  for (let i = 0; i < 6; i++) await tap(page, 'Lions +2');
  await saved(page);
  await expect(board(phoneB).getByLabel('Lions score 12')).toBeVisible();
  // Phone B: +3 (15).
  await tap(phoneB, 'Lions +3');
  await saved(phoneB);
  await expect(board(page).getByLabel('Lions score 15')).toBeVisible();
  // Phone A: Undo takes back phone A's last +2, keeping phone B's basket.
  await tap(page, 'Undo');
  await saved(page);
  for (const p of [page, phoneB, viewer]) {
    await expect(board(p).getByLabel('Lions score 13')).toBeVisible();
  }

  // The owner's Changes list says who made each change, on which device; a void is listed.
  await page.getByText('Changes', { exact: true }).click();
  const changes = page.getByRole('list', { name: 'Changes' });
  await expect(changes.locator('li').first()).toContainText('Undo: Home score 15 → 13');
  await expect(changes.locator('li').first()).toContainText(`by ${keeper} (this device)`);
  await expect(changes.locator('li').filter({ hasText: 'Lions +3 · 12 → 15' })).not.toContainText(
    'this device',
  );
  await screenshot(page, 'scorekeeper-trust-changes');

  // The owner voids phone B's basket from the list: 10 everywhere.
  await changes
    .locator('li')
    .filter({ hasText: 'Lions +3 · 12 → 15' })
    .getByRole('button', { name: 'Void' })
    .click();
  for (const p of [page, phoneB, viewer]) {
    await expect(board(p).getByLabel('Lions score 10')).toBeVisible();
  }
  await expect(changes.locator('li').filter({ hasText: 'Lions +3 · 12 → 15' })).toContainText(
    'voided',
  );
});

test('a correction saved from one phone keeps what the other phone scored meanwhile', async ({
  page,
  browser,
}) => {
  const { phoneB, viewer } = await twoPhones(page, browser);

  // Phone A opens the correction form at 0–0.
  await page.locator('summary', { hasText: 'Edit the scoreboard' }).click();
  await expect(page.getByLabel('Home score', { exact: true })).toHaveValue('0');
  // Phone B scores meanwhile.
  await tap(phoneB, 'Lions +3');
  await saved(phoneB);
  await expect(board(page).getByLabel('Lions score 3')).toBeVisible();
  // Phone A corrects only the away fouls: Lions keep phone B's basket.
  await page.getByLabel('Away fouls', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await saved(page);
  for (const p of [page, phoneB, viewer]) {
    await expect(board(p).getByLabel('Lions score 3')).toBeVisible();
  }
  await expect(page.getByRole('list', { name: 'Changes' })).toHaveCount(0); // panel closed
  await page.getByText('Changes', { exact: true }).click();
  const changes = page.getByRole('list', { name: 'Changes' });
  await expect(changes.locator('li').first()).toContainText('Away fouls 0 → 2');
  await expect(changes.locator('li').first()).not.toContainText('Home score');
});
