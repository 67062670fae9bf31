import { test, expect, unique, API, BASE, signIn, screenshot } from './fixtures.ts';
import { board, saved, tap } from './scorekeeper-helpers.ts';

const send = { 'x-sagan-request': '1' };

test('a viewer reports a game, the operator hides it, and its page is then not found', async ({
  browser,
  allowConsoleError,
}) => {
  allowConsoleError(
    /\/apps\/sagan\/(api\/)?admin(\/reports)?: Failed to load resource: .*\b404\b/,
    '/admin and its API answer 404 to a viewer who is no operator, as they must',
  );
  allowConsoleError(
    /\/viewscoreboard\/[\w-]+: Failed to load resource: .*\b404\b/,
    'the hidden game is answered 404, which is what the test checks',
  );
  // The owner makes a public game.
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await signIn(ownerPage, unique('Owner'));
  const gameName = unique('Rude name');
  const created = await ownerPage.request.post(`${API}/games`, {
    headers: send,
    data: { gameName },
  });
  const { gameKey } = (await created.json()) as { gameKey: string };
  const gameUrl = `${BASE}/viewscoreboard/${gameKey}`;

  // A signed-in viewer reports it with one tap.
  const viewer = await browser.newContext();
  const viewerPage = await viewer.newPage();
  await signIn(viewerPage, unique('Viewer'));
  await viewerPage.goto(gameUrl);
  await viewerPage.getByRole('button', { name: 'Report this game' }).click();
  await expect(viewerPage.getByRole('status')).toHaveText(/moderators will look at this game/);

  // The viewer is no operator: /admin is not found for them.
  const refused = await viewerPage.goto(`${BASE}/admin`);
  expect(refused?.status()).toBe(404);

  // The operator hides it from the queue.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, 'E2E Moderator');
  const queue = await adminPage.goto(`${BASE}/admin`);
  expect(queue?.status()).toBe(200);
  const card = adminPage.getByRole('listitem').filter({ hasText: gameName });
  await expect(card).toContainText('1 report');
  await screenshot(adminPage, 'admin-queue');
  await card.getByRole('button', { name: 'Hide game' }).click();
  await expect(
    adminPage.getByRole('region', { name: 'Hidden games' }).getByText(gameName),
  ).toBeVisible();
  await screenshot(adminPage, 'admin-hidden');

  // The public page is now not found, served so and shown so.
  const anonymous = await browser.newContext();
  const anonPage = await anonymous.newPage();
  const res = await anonPage.goto(gameUrl);
  expect(res?.status()).toBe(404);
  await expect(anonPage.getByRole('heading', { name: 'Not found' })).toBeVisible();

  // Its owner still sees it in their list, marked hidden, and is told on every page.
  await ownerPage.goto(`${BASE}/scoreboards`);
  await expect(ownerPage.getByText('Hidden by a moderator')).toBeVisible();
  const notices = ownerPage.getByRole('region', { name: 'Notices from the moderators' });
  await expect(notices).toContainText(`A moderator hid your game “${gameName}”`);
  await screenshot(ownerPage, 'owner-hidden-game');
  // Their own board page shows the game, saying it is hidden and what they can do.
  await notices.getByRole('link', { name: 'Open it' }).click();
  await expect(ownerPage.getByRole('heading', { name: 'Hidden by a moderator' })).toBeVisible();
  await expect(ownerPage.getByRole('link', { name: 'Score or edit this game' })).toBeVisible();
  await expect(ownerPage.getByRole('heading', { name: gameName, level: 1 })).toBeVisible();
  await screenshot(ownerPage, 'owner-hidden-board');
  // And they can still score it.
  await ownerPage.getByRole('link', { name: 'Score or edit this game' }).click();
  await expect(ownerPage.getByRole('heading', { name: 'Hidden by a moderator' })).toBeVisible();
  await saved(ownerPage);
  await tap(ownerPage, 'Home +1');
  await saved(ownerPage);
  await expect(board(ownerPage).getByLabel('Home score 1')).toBeVisible();
  await screenshot(ownerPage, 'owner-hidden-scorekeeper');
  await notices.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notices).toHaveCount(0);
  for (const c of [owner, viewer, admin, anonymous]) await c.close();
});

test('a fan reports a comment, the operator hides it: the fan no longer sees it, its author does, marked', async ({
  browser,
}) => {
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await signIn(ownerPage, unique('Author'));
  const created = await ownerPage.request.post(`${API}/games`, {
    headers: send,
    data: { gameName: unique('Commented') },
  });
  const { gameKey } = (await created.json()) as { gameKey: string };
  const text = unique('Rude comment');
  const commented = await ownerPage.request.post(`${API}/games/${gameKey}/comments`, {
    headers: send,
    data: { gameComment: text },
  });
  expect(commented.ok()).toBe(true);
  const gameUrl = `${BASE}/viewscoreboard/${gameKey}`;

  // The fan reports it with one tap, once the app has taken over the rendered page.
  const fan = await browser.newContext();
  const fanPage = await fan.newPage();
  await signIn(fanPage, unique('Fan'));
  await fanPage.goto(gameUrl);
  await expect(fanPage.locator('#root:not([aria-busy="true"])')).toBeAttached();
  const comment = fanPage.locator('.comment').filter({ hasText: text });
  await comment.getByRole('button', { name: 'Report' }).click();
  await expect(comment.getByRole('status')).toHaveText(/moderators will look at it/);

  // The operator hides it from the queue.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, 'E2E Moderator');
  await adminPage.goto(`${BASE}/admin`);
  const card = adminPage
    .getByRole('region', { name: 'Reported comments' })
    .getByRole('listitem')
    .filter({ hasText: text });
  await expect(card).toContainText('1 report');
  await card.getByRole('button', { name: 'Hide comment' }).click();
  await expect(
    adminPage.getByRole('region', { name: 'Hidden comments' }).getByText(text),
  ).toBeVisible();
  await screenshot(adminPage, 'admin-hidden-comment');

  // The fan's open page loses it, live.
  await expect(fanPage.getByText(text)).toHaveCount(0);
  await expect(fanPage.getByText('No comments yet.')).toBeVisible();

  // Its author still sees it, marked, and is told.
  await ownerPage.goto(gameUrl);
  const mine = ownerPage.locator('.comment').filter({ hasText: text });
  await expect(mine.getByText('Hidden by a moderator')).toBeVisible();
  await expect(
    ownerPage.getByRole('region', { name: 'Notices from the moderators' }),
  ).toContainText('A moderator hid your comment');
  await screenshot(ownerPage, 'author-hidden-comment');
  for (const c of [owner, fan, admin]) await c.close();
});
