import { test, expect, unique, signIn, screenshot, BASE } from './fixtures.ts';
import { board, newGame, PHONE, saved, status, tap } from './scorekeeper-helpers.ts';

// Held events (DESIGN §10): a dead zone between sets. Phone A loses the network in Set 2 and
// taps; phone B (same account, its own device) wins the set; Set 3 begins; A comes back. The
// taps wait for a scorer's decision instead of landing in Set 3, and both phones are told.

test.use({ viewport: PHONE, hasTouch: true });

test('scenario 2: taps made offline in Set 2 are held after Set 3 began, and resolved once', async ({
  page,
  browser,
  context,
}) => {
  const keeper = unique('Keeper');
  await signIn(page, keeper);
  const { gameKey } = await newGame(page, 'Volleyball', async (p) => {
    await p.getByLabel('Home team').fill('Aces');
    await p.getByLabel('Period').fill('Set 2');
  });
  const phoneB = await (await browser.newContext({ viewport: PHONE, hasTouch: true })).newPage();
  await signIn(phoneB, keeper);
  await phoneB.goto(`${BASE}/scoregame/${gameKey}`);
  await saved(phoneB);

  // Phone A, offline in Set 2: Aces +1 three times, shown on its own board only.
  await context.setOffline(true);
  await expect(status(page)).toHaveText('Offline');
  await tap(page, 'Aces +1', 'Aces +1', 'Aces +1');
  await expect(status(page)).toHaveText('Offline, 3 changes waiting');
  await expect(board(page).getByLabel('Aces points 3')).toBeVisible();

  // Phone B: the Aces take Set 2 at 1–0; Set 3 begins at 0–0.
  await tap(phoneB, 'Aces +1', 'Aces won the set');
  await saved(phoneB);
  await expect(board(phoneB).getByLabel('Period Set 3')).toBeVisible();

  // Phone A is back: its taps are held, not shown as 3–0 in Set 3 on either phone.
  await context.setOffline(false);
  await saved(page);
  const notice = 'Held taps';
  for (const p of [page, phoneB]) {
    await expect(p.getByRole('region', { name: notice })).toContainText(
      '3 taps made in Set 2 arrived after Set 3 began',
    );
    await expect(board(p).getByLabel('Period Set 3')).toBeVisible();
    await expect(board(p).getByLabel('Aces points 0')).toBeVisible();
  }
  await screenshot(page, 'scorekeeper-held');

  // Phone B applies them to Set 2 (5–0 keeps it the Aces'): gone from both, Set 3 still 0–0.
  await phoneB
    .getByRole('region', { name: notice })
    .getByRole('button', { name: 'Apply to Set 2' })
    .click();
  await expect(phoneB.getByRole('status').filter({ hasText: 'applied to Set 2' })).toBeVisible();
  await expect(page.getByRole('region', { name: notice })).toHaveCount(0);
  for (const p of [page, phoneB]) await expect(board(p).getByLabel('Aces points 0')).toBeVisible();

  // The owner's Changes list says what became of them.
  await page.getByText('Changes', { exact: true }).click();
  const changes = page.getByRole('list', { name: 'Changes' });
  await expect(changes.locator('li').filter({ hasText: 'then applied to Set 2' })).toHaveCount(3);
});
