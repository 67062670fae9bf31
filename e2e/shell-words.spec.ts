import { demoFields } from '../apps/server/src/demo/games.ts';
import { test, expect, unique, BASE, apiAs, signIn, openPage } from './fixtures.ts';
import { keeperWithGame, putPlayCount } from './seed.ts';

// What the screens say: no false counts, no program words, no silent cuts, the reader's dates.

test('the watcher count shows only once it counts you, never "Watching now: 0"', async ({
  page,
  request,
}) => {
  const { gameKey } = await keeperWithGame(request, { gameName: 'Watched game' });
  // Every text the page ever shows is recorded, so a flash of a 0 is caught too.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenWatchers: string[] }).seenWatchers = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('.watchers')) seen.push(el.textContent ?? '');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await expect(page.getByText('Watching now: 1')).toBeVisible();
  const seen = await page.evaluate(
    () => (window as unknown as { seenWatchers: string[] }).seenWatchers,
  );
  expect(seen.filter((t) => /:\s0\b/.test(t))).toEqual([]);
});

test('a message to the scorekeeper shows its length against the limit and is never cut', async ({
  page,
  request,
}) => {
  const { gameKey } = await keeperWithGame(request, { gameName: 'Long letter' });
  await signIn(page, unique('Fan'));
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  const box = page.getByLabel('Your message');
  await box.fill('Great game!');
  await expect(page.getByText('11 / 1000 characters')).toBeVisible();
  const long = 'x'.repeat(1005);
  await box.fill(long);
  await expect(box).toHaveValue(long); // not silently cut at 1,000
  await expect(page.getByText('1005 / 1000 characters')).toBeVisible();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Please keep the message to 1000 characters or fewer',
  );
  await expect(box).toHaveValue(long);
});

test('a rate limit is said in plain words', async ({ page, request, allowConsoleError }) => {
  test.setTimeout(120_000);
  allowConsoleError(
    /scorekeeper-message: Failed to load resource: .*\b429\b/,
    'the send is refused with 429 on purpose (the limit was used up), which Chromium logs',
  );
  const name = unique('Eager fan');
  const { gameKey } = await keeperWithGame(request, { gameName: 'Busy game' });
  await signIn(page, name);
  // The scorekeeper's inbox takes 5 messages a minute (x100 on the e2e server): use them up.
  const send = () =>
    page.request.post(`${BASE}/api/games/${gameKey}/scorekeeper-message`, {
      headers: { 'x-sagan-request': '1' },
      data: { scoreKeeperMessage: 'hello' },
    });
  let limited = false;
  for (let round = 0; round < 30 && !limited; round++) {
    const answers = await Promise.all(Array.from({ length: 25 }, send));
    limited = answers.some((r) => r.status() === 429);
  }
  expect(limited).toBe(true);
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await page.getByLabel('Your message').fill('One more');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Too many changes at once. Please wait a minute and try again.',
  );
  await expect(page.getByText(/Rate limit exceeded|retry in/)).toHaveCount(0);
});

test('a tennis card shows the games of each set, not 0–0', async ({ page, request }) => {
  const keeper = await apiAs(request, unique('Umpire'));
  const name = unique('Tennis card');
  // The demo's match: 6-4 in the first set, 3-2 in the second.
  await keeper.call('POST', '/games', { ...demoFields('Club Championship'), gameName: name });
  await openPage(page, '/');
  const card = page.getByRole('link', { name: new RegExp(name) });
  await expect(card).toContainText(/A\. Rivera\s*Sets 6, 3/);
  await expect(card).toContainText(/K\. Osei\s*Sets 4, 2/);
  await expect(card.locator('.summary-score')).toHaveText(['3', '2']);
});

test.describe('in a British browser', () => {
  test.use({ locale: 'en-GB' });
  test('a play count date is written the reader’s way', async ({ page, request }) => {
    const coach = unique('Coach');
    const phone = await apiAs(request, coach);
    const gameKey = await putPlayCount(phone, {
      gameName: 'Lions v Bears',
      gameDate: '2025-09-13',
      roster: [],
      snaps: [],
    });
    await signIn(page, coach);
    await page.goto(`${BASE}/playcount/${gameKey}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('13 Sept 2025 Lions v Bears');
  });
});
