import { expectNoSeriousViolations } from './axe.ts';
import { test, expect, unique, BASE, API, signIn, screenshot } from './fixtures.ts';
import { board, newGame, PHONE, saved, status, tap, viewerOf } from './scorekeeper-helpers.ts';

// The scorekeeper's promises on a bad network (DESIGN §9): taps made offline are kept in
// order and each reaches the server exactly once; and everything around the game.

test.use({ viewport: PHONE, hasTouch: true });

test('offline: 20 taps wait, then each reaches the server exactly once', async ({
  signedInPage: page,
  context,
  browser,
}) => {
  // Twenty taps, each then sent and waited for, and the history read twice.
  test.setTimeout(120_000);
  const { gameKey } = await newGame(page, 'Basketball');
  const viewer = await viewerOf(browser, gameKey);
  const sent: { key: string; body: string }[] = [];
  // Taps are sent as intents to the game's event log (DESIGN §10).
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/events'))
      sent.push({ key: r.headers()['idempotency-key']!, body: r.postData()! });
  });

  await context.setOffline(true);
  for (let i = 0; i < 20; i++) await tap(page, 'Lions +1');
  await expect(status(page)).toHaveText('Offline, 20 changes waiting');
  // The owner sees the taps at once; viewers get them when the network is back.
  await expect(board(page).getByLabel('Lions score 20')).toBeVisible();
  await expect(board(viewer).getByLabel('Lions score 0')).toBeVisible();
  await screenshot(page, 'scorekeeper-offline');

  await context.setOffline(false);
  await saved(page);
  await expect(board(viewer).getByLabel('Lions score 20')).toBeVisible();
  // Exactly once each: the history holds 20 changes of the score, one point each.
  await page.getByText('Changes', { exact: true }).click();
  const changes = page.getByRole('list', { name: 'Changes' }).getByRole('listitem');
  await expect(changes.filter({ hasText: 'Lions +1 · ' })).toHaveCount(20);
  for (let n = 0; n < 20; n++) {
    await expect(changes.filter({ hasText: `Lions +1 · ${n} → ${n + 1}` })).toHaveCount(1);
  }

  // A replay of a sent request under its key (a lost answer, say) changes nothing.
  const first = sent.find((s) => s.key)!;
  const replay = await page.request.post(`${API}/games/${gameKey}/events`, {
    headers: {
      'idempotency-key': first.key,
      'x-sagan-request': '1',
      'content-type': 'application/json',
    },
    data: first.body,
  });
  expect(replay.status()).toBe(200);
  await page.reload();
  await saved(page);
  await expect(board(page).getByLabel('Lions score 20')).toBeVisible();
  await expect(board(viewer).getByLabel('Lions score 20')).toBeVisible();
  await page.getByText('Changes', { exact: true }).click();
  await expect(
    page
      .getByRole('list', { name: 'Changes' })
      .getByRole('listitem')
      .filter({ hasText: 'Lions +1 · ' }),
  ).toHaveCount(20);
});

test('around the game: comment, tags, messages, share, overlay, delete', async ({
  signedInPage: page,
  browser,
}) => {
  // Five panels, three browser contexts and axe twice: about 80 s beside a busy second worker.
  test.setTimeout(180_000);
  const tag = unique('cup').replace(' ', '');
  const { gameKey, name } = await newGame(page, 'Rugby', async (p) => {
    await p.getByLabel('Tags').fill(tag);
  });
  await expectNoSeriousViolations(page, 'scorekeeper (rugby)');
  const viewer = await viewerOf(browser, gameKey);
  await expect(viewer.getByRole('link', { name: `#${tag}` })).toBeVisible();

  await tap(page, 'Lions +1');
  await page.getByText('Comment', { exact: true }).click();
  await page.getByLabel('Comment', { exact: true }).fill('Try in the corner!');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(viewer.getByText('Try in the corner!')).toBeVisible();
  await expect(viewer.locator('.comment-score')).toHaveText('Lions 1 – Tigers 0');

  await page.getByText('Tags', { exact: true }).click();
  await page.getByLabel('Tags', { exact: true }).fill(`${tag} finals`);
  await page.getByRole('button', { name: 'Save tags' }).click();
  await expect(viewer.getByRole('link', { name: '#finals' })).toBeVisible();

  // A viewer writes to the scorekeeper, who reads it and marks it read.
  await signIn(viewer, unique('Fan'));
  await viewer.reload();
  await viewer.getByLabel('Your message').fill('Who scored the try?');
  await viewer.getByRole('button', { name: 'Send' }).click();
  await expect(viewer.getByText('Sent')).toBeVisible();
  await page.getByText('Messages', { exact: true }).click();
  await expect(page.getByText('Who scored the try?')).toBeVisible();
  await page.getByRole('button', { name: 'Mark read' }).click();
  await expect(page.locator('.sk-messages li')).toContainText('read');
  await expect(page.getByRole('button', { name: 'Mark read' })).toHaveCount(0);

  await page.getByText('Share', { exact: true }).click();
  await expect(page.getByLabel('Link', { exact: true })).toHaveValue(
    new RegExp(`/apps/sagan/viewscoreboard/${gameKey}$`),
  );
  await expect(page.getByLabel('Embed code')).toHaveValue(
    new RegExp(`^<iframe src="http[^"]+/viewscoreboardmini/${gameKey}"`),
  );
  await expect(page.getByAltText("QR code of the scoreboard's link")).toBeVisible();
  await expectNoSeriousViolations(page, 'scorekeeper share panel');
  await screenshot(page, 'scorekeeper-share');

  const overlay = await (
    await browser.newContext({ viewport: { width: 1920, height: 1080 } })
  ).newPage();
  await overlay.goto(`${BASE}/viewscoreboardmini/${gameKey}?overlay=1`);
  await expect(overlay.getByText(name)).toBeVisible();
  const background = await overlay.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgba(0, 0, 0, 0)');
  await overlay.screenshot({
    path: new URL('../.tmp/screens/overlay.png', import.meta.url).pathname,
  });

  await page.getByText('Delete', { exact: true }).click();
  await page.getByRole('button', { name: 'Delete this game' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).toHaveURL(`${BASE}/scoreboards`);
  await expect(viewer.getByRole('heading', { name: 'Not found' })).toBeVisible();
});

test('the scorekeeper is the owner’s: anyone else gets not-found; My Games links to it', async ({
  signedInPage: page,
  browser,
}) => {
  const { gameKey, name } = await newGame(page, 'Water Polo');
  await page.goto(`${BASE}/scoreboards`);
  await page.getByRole('link', { name: `Score ${name}` }).click();
  await expect(page).toHaveURL(`${BASE}/scoregame/${gameKey}`);
  await saved(page);

  const other = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signIn(other, unique('Stranger'));
  await other.goto(`${BASE}/scoregame/${gameKey}`);
  await expect(other.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Lions +1' })).toHaveCount(0);
});

test('new game screen at 320 px: nothing overflows', async ({ signedInPage: page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto(`${BASE}/newgame`);
  await page.getByLabel('Sport').selectOption({ label: 'Tennis' });
  await expectNoSeriousViolations(page, 'new game');
  await screenshot(page, 'newgame-320');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(320);
  await newGame(page, 'Baseball');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await screenshot(page, 'scorekeeper-baseball-320');
});

test('opened again without network, the scorekeeper shows the game and keeps the taps', async ({
  signedInPage: page,
  context,
  browser,
  allowConsoleError,
}) => {
  test.setTimeout(120_000);
  allowConsoleError(
    /WebSocket|ERR_INTERNET_DISCONNECTED/,
    'offline, the page tries its live connection and Chromium logs the failure',
  );
  const { gameKey } = await newGame(page, 'Soccer');
  // Opened once more with the service worker in charge (it cached the app shell at install).
  await page.goto(`${BASE}/scoregame/${gameKey}`);
  await saved(page);
  await expect
    .poll(() =>
      page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration(location.href))?.active?.state,
      ),
    )
    .toBe('activated');

  await context.setOffline(true);
  await page.reload();
  await expect(board(page).getByLabel('Lions score 0')).toBeVisible();
  await expect(status(page)).toHaveText('Offline');
  await tap(page, 'Lions +1', 'Lions +1');
  await expect(status(page)).toHaveText('Offline, 2 changes waiting');

  await context.setOffline(false);
  await saved(page);
  const viewer = await viewerOf(browser, gameKey);
  await expect(board(viewer).getByLabel('Lions score 2')).toBeVisible();
});
