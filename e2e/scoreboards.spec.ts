import type { Page } from '@playwright/test';
import {
  test,
  expect,
  unique,
  BASE,
  apiAs,
  createGame,
  signIn,
  screenshot,
  openPage,
} from './fixtures.ts';
import { keeperWithGame } from './seed.ts';

const board = (page: Page) => page.getByRole('region', { name: 'Scoreboard' });

test.describe('scoreboards: live games for viewers', () => {
  test('a game scored through the API shows on the Dashboard and its board changes live, clock ticking', async ({
    page,
    request,
  }) => {
    const name = unique('Live Derby');
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: name,
      sportID: 2,
      homeTeamName: 'Eagles',
      awayTeamName: 'Hawks',
      gamePeriod: 'Q1',
    });

    await openPage(page, '/');
    const card = page
      .getByRole('list', { name: 'Current Games' })
      .getByRole('link', { name: new RegExp(name) });
    await expect(card).toBeVisible();
    await expect(card).toContainText('Basketball');
    // The dashboard is live too: a score arrives without reload.
    await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: 2 });
    await expect(card).toContainText('2');

    await card.click();
    await expect(page).toHaveURL(`${BASE}/viewscoreboard/${gameKey}`);
    await expect(board(page).getByRole('heading', { name })).toBeVisible();
    await expect(board(page).getByLabel('Eagles score 2')).toBeVisible();

    await keeper.call('PATCH', `/games/${gameKey}`, {
      homeScore: 5,
      awayScore: 3,
      gamePeriod: 'Q2',
    });
    await expect(board(page).getByLabel('Eagles score 5')).toBeVisible();
    await expect(board(page).getByLabel('Hawks score 3')).toBeVisible();
    await expect(board(page).getByLabel('Period Q2')).toBeVisible();

    await keeper.call('POST', `/games/${gameKey}/clock`, { formattedTime: '7:59', seconds: 479 });
    await expect(board(page).getByLabel('Clock 7:59')).toBeVisible();
    await keeper.call('POST', `/games/${gameKey}/clock`, { formattedTime: '7:58', seconds: 478 });
    await expect(board(page).getByLabel('Clock 7:58')).toBeVisible();

    await keeper.call('POST', `/games/${gameKey}/comments`, {
      gameComment: 'Big three from the corner',
    });
    await expect(page.getByText('Big three from the corner')).toBeVisible();
    await expect(page.getByText('Watching now: 1')).toBeVisible();
  });

  test('a signed-in viewer bookmarks a game and finds it under Bookmarked Games', async ({
    page,
    request,
  }) => {
    const name = unique('Bookmarkable');
    const { gameKey } = await keeperWithGame(request, { gameName: name, homeScore: 1 });
    await signIn(page, unique('Fan'));
    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    const toggle = page.getByRole('button', { name: 'Bookmark this game' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Scoreboards' })
      .click();
    const bookmarked = page.getByRole('list', { name: 'Bookmarked Games' });
    await expect(bookmarked.getByRole('link', { name: new RegExp(name) })).toBeVisible();
    await screenshot(page, 'scoreboards-signed-in-desktop');

    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    await page.getByRole('button', { name: 'Bookmark this game' }).click();
    await expect(page.getByRole('button', { name: 'Bookmark this game' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await page.goto(`${BASE}/scoreboards`);
    await expect(
      page.getByText('Bookmark a game on its scoreboard to find it here.'),
    ).toBeVisible();
  });

  test('a signed-in viewer follows a tag and its games appear under Tagged Games', async ({
    page,
    request,
  }) => {
    const tag = `Tag${Math.random().toString(36).slice(2, 8)}`;
    const name = unique('Tagged Game');
    const { keeper, gameKey } = await keeperWithGame(request, { gameName: name });
    await keeper.call('PUT', `/games/${gameKey}/tags`, { tags: [tag] });
    await signIn(page, unique('Follower'));

    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    await page
      .getByRole('list', { name: 'Tags' })
      .getByRole('link', { name: `#${tag}` })
      .click();
    await expect(page.getByRole('heading', { name: `Scoreboards Tagged #${tag}` })).toBeVisible();
    await expect(page.getByRole('link', { name: new RegExp(name) })).toBeVisible();
    const follow = page.getByRole('button', { name: `Follow #${tag}` });
    await expect(follow).toHaveAttribute('aria-pressed', 'false');
    await follow.click();
    await expect(follow).toHaveAttribute('aria-pressed', 'true');
    await screenshot(page, 'tagged-desktop');

    await page.goto(`${BASE}/scoreboards`);
    await expect(
      page
        .getByRole('list', { name: 'Tagged Games' })
        .getByRole('link', { name: new RegExp(name) }),
    ).toBeVisible();
    // A game tagged later joins the list live.
    const later = unique('Later Game');
    const laterKey = await createGame(keeper, { gameName: later });
    await keeper.call('PUT', `/games/${laterKey}/tags`, { tags: [tag.toUpperCase()] });
    await expect(
      page
        .getByRole('list', { name: 'Tagged Games' })
        .getByRole('link', { name: new RegExp(later) }),
    ).toBeVisible();
  });

  test('a signed-in viewer messages the scorekeeper, who reads it through the API', async ({
    page,
    request,
  }) => {
    const { keeper, gameKey } = await keeperWithGame(request, { gameName: unique('Message Game') });
    const fan = unique('Fan');
    await signIn(page, fan);
    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    const box = page.getByRole('region', { name: 'Message the Scorekeeper' });
    await box.getByRole('button', { name: 'Send' }).click();
    await expect(box.getByText('Please write a message')).toBeVisible();
    await box.getByLabel('Your message').fill('Please post the halftime score');
    await box.getByRole('button', { name: 'Send' }).click();
    await expect(box.getByText('Sent')).toBeVisible();
    await expect(box.getByLabel('Your message')).toHaveValue('');
    const { messages } = (await keeper.call('GET', `/games/${gameKey}/messages`)) as {
      messages: { message: string; fromName: string }[];
    };
    expect(messages).toEqual([
      expect.objectContaining({ message: 'Please post the halftime score', fromName: fan }),
    ]);
    await box.getByLabel('Your message').fill('never mind');
    await box.getByRole('button', { name: 'Cancel' }).click();
    await expect(box.getByLabel('Your message')).toHaveValue('');
  });

  test('signed out: Scoreboards invites sign-in and the board offers sign-in for bookmark and message', async ({
    page,
    request,
  }) => {
    await page.goto(`${BASE}/scoreboards`);
    await expect(page.getByRole('heading', { name: 'Scoreboards', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'My Games' })).toHaveCount(0);
    const { gameKey } = await keeperWithGame(request, { gameName: unique('Public Game') });
    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    await expect(page.getByRole('link', { name: 'Sign in to bookmark' })).toBeVisible();
    await expect(page.getByText('to send the scorekeeper a message')).toBeVisible();
    await expect(page.getByRole('link', { name: /Score your games free/ })).toBeVisible();
  });

  test('a missing game shows a friendly not-found, with status 404', async ({
    page,
    allowConsoleError,
  }) => {
    allowConsoleError(/noSuchGame123: Failed to load resource: .* 404/, 'the page answers 404');
    const res = await page.goto(`${BASE}/viewscoreboard/noSuchGame123`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    await expect(page.getByText('We could not find this scoreboard')).toBeVisible();
  });

  test('the mini card route shows one live card alone, without menu or footer', async ({
    page,
    request,
  }) => {
    const name = unique('Mini Game');
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: name,
      gamePeriod: 'Final',
      homeScore: 3,
    });
    const res = await page.goto(`${BASE}/viewscoreboardmini/${gameKey}`);
    // Other sites may embed it (that route only).
    expect(res?.headers()['content-security-policy']).toContain('frame-ancestors *');
    const card = page.getByRole('link', { name: new RegExp(name) });
    await expect(card).toBeVisible();
    await expect(card).toHaveAttribute('data-period-style', 'final');
    await expect(page.getByRole('link')).toHaveCount(1);
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expect(page.locator('footer')).toHaveCount(0);
    await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: 4 });
    await expect(card).toContainText('4');
    await screenshot(page, 'mini-card');
  });

  test('screenshots: Dashboard on a desktop and a phone', async ({ page, request }) => {
    const keeper = await apiAs(request, unique('Keeper'));
    const soon = await createGame(keeper, {
      gameName: 'Starting Soon Game',
      gamePeriod: 'Starting Soon',
    });
    await keeper.call('PUT', `/games/${soon}/tags`, { tags: ['ScreenshotTag'] });
    await createGame(keeper, {
      gameName: 'Finished Game',
      gamePeriod: 'Final',
      homeScore: 3,
      awayScore: 1,
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage(page, '/');
    await expect(page.getByRole('heading', { name: 'Current Games' })).toBeVisible();
    await expect(
      page
        .getByRole('list', { name: 'Popular Tags' })
        .getByRole('link', { name: /#ScreenshotTag/ }),
    ).toBeVisible();
    for (const f of ['Scoreboards', 'Team Sheets', 'Play Counting', 'Apps']) {
      await expect(
        page.locator('.feature-cards').getByRole('link', { name: new RegExp(f) }),
      ).toBeVisible();
    }
    await screenshot(page, 'dashboard-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Current Games' })).toBeVisible();
    await screenshot(page, 'dashboard-phone');
  });
});
