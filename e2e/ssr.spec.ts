import type {
  APIRequestContext,
  Browser,
  BrowserContextOptions,
  Locator,
  Page,
} from '@playwright/test';
import { test, expect, unique, BASE, apiAs, createGame, screenshot, signIn } from './fixtures.ts';
import { keeperWithGame, createTeam } from './seed.ts';

// Server-rendered first paint (docs/decisions/0013): the scoreboard is in the HTML itself, the
// app then takes over without a flash and goes on live.

const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/**
 * Runs in the page before any of its own script: records every element added under #root
 * that is, or holds, the <Loading/> fallback (components/loading.tsx), and whether the board
 * was ever missing from the document after it had first appeared.
 */
const WATCH_FLASH = `(() => {
  window.__loadingSeen = 0;
  window.__boardGone = 0;
  let boardSeen = false;
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes)
        if (n.nodeType === 1 && (n.matches('.loading') || n.querySelector('.loading')))
          window.__loadingSeen++;
    const board = document.querySelector('section.board .board-score');
    if (board) boardSeen = true;
    else if (boardSeen) window.__boardGone++;
  }).observe(document, { childList: true, subtree: true });
})();`;

async function openPage(
  browser: Browser,
  url: string,
  opts: BrowserContextOptions,
): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, ...opts });
  await context.addInitScript(WATCH_FLASH);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // Signed out, the app's "who am I" call is answered 401 by design. (A 404 is judged by the
    // console fixture, which the not-found test tells to allow it.)
    if (m.type() === 'error' && !/401|404|\/auth\/me/.test(m.text())) errors.push(m.text());
  });
  await page.goto(url);
  return {
    page,
    async close() {
      await context.close();
      expect(errors).toEqual([]);
    },
  };
}

/** The app's entry module: held, the page stays the server's markup. */
const APP_ENTRY = /\/assets\/index-[^/]+\.js$/;

/**
 * Opens path with the page's requests for the app's code matching `asset` held until the
 * returned release is called: meanwhile the page is the server's markup, as on a slow phone.
 */
async function openHeld(page: Page, path: string, asset = APP_ENTRY): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route(asset, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${BASE}${path}`, { waitUntil: 'domcontentloaded' });
  return () => release();
}

/**
 * Lets the held app code load, and waits until the app has taken the page over (#root, busy
 * from the server's first byte, no longer is) keeping the server's element `shown` as its own.
 */
async function tookOver(page: Page, shown: Locator, release: () => void): Promise<void> {
  const serverElement = await shown.elementHandle();
  await expect(page.locator('#root')).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
  expect(await serverElement!.evaluate((el) => el.isConnected)).toBe(true);
}

/** A new coach's team with these [jersey, name] players, published: its public sheet's key. */
async function publishedSheet(
  request: APIRequestContext,
  teamName: string,
  players: [jersey: string, playerName: string][],
): Promise<string> {
  const coach = await apiAs(request, unique(`${teamName} coach`));
  const teamKey = await createTeam(coach, { teamName });
  for (const [jersey, playerName] of players) {
    await coach.call('PUT', `/teams/${teamKey}/players/-1`, { jersey, playerName });
  }
  const { publishedAsKey } = (await coach.call('POST', `/teams/${teamKey}/publish`)) as {
    publishedAsKey: string;
  };
  return publishedAsKey;
}

test.describe('server-rendered scoreboard', () => {
  test('a control focused before the app takes over keeps the focus', async ({
    browser,
    request,
  }) => {
    const { gameKey } = await keeperWithGame(request, { gameName: 'Focus Cup', sportID: 2 });
    const context = await browser.newContext();
    const page = await context.newPage();
    // Hold the app's entry module until a keyboard user has reached a control.
    const release = await openHeld(page, `/viewscoreboard/${gameKey}`);
    await page.getByRole('button', { name: 'Bright sun' }).focus();
    await expect(page).not.toHaveTitle('Focus Cup · Sagan'); // still the server's page
    release();
    await expect(page).toHaveTitle('Focus Cup · Sagan');
    const sun = page.getByRole('button', { name: 'Bright sun' });
    await expect(sun).toBeFocused();
    await page.keyboard.press('Space');
    await expect(sun).toHaveAttribute('aria-pressed', 'true');
    await context.close();
  });

  test('a tap on a button before the app takes over is done once it has', async ({
    browser,
    request,
  }) => {
    const { gameKey } = await keeperWithGame(request, { gameName: 'Early Tap Cup', sportID: 2 });
    const context = await browser.newContext();
    const page = await context.newPage();
    // The app's entry has run; the board page's own code is still on its way.
    const release = await openHeld(
      page,
      `/viewscoreboard/${gameKey}`,
      /\/assets\/scoreboard-page-[^/]+\.js$/,
    );
    await expect(page.locator('#root')).toHaveAttribute('aria-busy', 'true');
    const sun = page.getByRole('button', { name: 'Bright sun' });
    await expect(sun).toHaveAttribute('aria-pressed', 'false');
    await sun.click();
    // The server's markup has no handlers: nothing happens yet.
    await expect(sun).toHaveAttribute('aria-pressed', 'false');
    await tookOver(page, sun, release);
    await expect(sun).toHaveAttribute('aria-pressed', 'true');
    await context.close();
  });

  test('taps made before the app has even started are each done once it has taken over', async ({
    browser,
    request,
  }) => {
    const { gameKey } = await keeperWithGame(request, { gameName: 'Before Start Cup', sportID: 2 });
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    // Not even the app's entry has run: only the page's own HTML and its inline theme script.
    const release = await openHeld(page, `/viewscoreboard/${gameKey}`);
    const sun = page.getByRole('button', { name: 'Bright sun' });
    const dark = page.getByRole('button', { name: 'Dark mode' });
    await expect(sun).toHaveAttribute('aria-pressed', 'false');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await sun.click();
    await dark.click();
    // Still the server's markup, which has no handlers: nothing has happened yet.
    await expect(page).not.toHaveTitle('Before Start Cup · Sagan');
    await expect(sun).toHaveAttribute('aria-pressed', 'false');
    await tookOver(page, sun, release);
    // Each tap done once: a tap done twice would have toggled back.
    await expect(sun).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('.scoreboard-page.sun-mode')).toBeVisible();
    await expect(dark).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // And from now on a tap is the app's own, done at once and once.
    await sun.click();
    await expect(sun).toHaveAttribute('aria-pressed', 'false');
    await context.close();
  });

  test('text typed into a public sheet before the app takes over is kept and filters', async ({
    browser,
    request,
  }) => {
    const publishedAsKey = await publishedSheet(request, 'Early Typers', [
      ['4', 'Ann Lee'],
      ['8', 'Bo Diaz'],
      ['12', 'Cy Ng'],
    ]);
    const context = await browser.newContext();
    const page = await context.newPage();
    // Hold the app's entry module until the fan has typed into the server's markup.
    const release = await openHeld(page, `/teamsheets/${publishedAsKey}`);
    const rows = page.locator('table.roster tbody tr');
    await expect(rows).toHaveCount(3);
    await page.getByPlaceholder('Search...').fill('diaz');
    await expect(rows).toHaveCount(3); // the server's markup does not filter
    const serverField = await page.getByPlaceholder('Search...').elementHandle();
    await expect(page.locator('#root')).toHaveAttribute('aria-busy', 'true');
    release();
    await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
    // The app took the server's field over, its text with it.
    expect(await serverField!.evaluate((el) => el.isConnected)).toBe(true);
    await expect(page.getByPlaceholder('Search...')).toHaveValue('diaz');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Bo Diaz');
    // And it is the app's field now: typing on goes on filtering.
    await page.getByPlaceholder('Search...').fill('ng');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Cy Ng');
    await context.close();
  });

  test('a keystroke right as the app takes over lands in its field, replacing a selection', async ({
    browser,
    request,
  }) => {
    const publishedAsKey = await publishedSheet(request, 'Quick Hands', [
      ['4', 'Ann Lee'],
      ['12', 'Cy Ng'],
    ]);
    const context = await browser.newContext();
    // Records where the focus and selection are in the first moment after the app has taken the
    // server's markup over (it ends #root's aria-busy, then renders, in one task): a mutation
    // observer's callback runs before any later task, so a keystroke can never come earlier.
    await context.addInitScript(`(() => {
      window.__afterTakeover = null;
      document.addEventListener('DOMContentLoaded', () => {
        const root = document.getElementById('root');
        new MutationObserver(() => {
          if (window.__afterTakeover || root.hasAttribute('aria-busy')) return;
          const a = document.activeElement;
          window.__afterTakeover = {
            tag: a.tagName,
            placeholder: a.getAttribute('placeholder'),
            value: a.value,
            start: a.selectionStart,
            end: a.selectionEnd,
          };
        }).observe(root, { childList: true, subtree: true, attributes: true });
      });
    })();`);
    const page = await context.newPage();
    const release = await openHeld(page, `/teamsheets/${publishedAsKey}`);
    const search = page.getByPlaceholder('Search...');
    await search.fill('lee');
    // As a fill does before it types: the field focused and its text selected.
    await search.focus();
    await search.selectText();
    release();
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { __afterTakeover: unknown }).__afterTakeover),
      )
      .toEqual({
        tag: 'INPUT',
        placeholder: 'Search...',
        value: 'lee',
        start: 0,
        end: 3,
      });
    await page.keyboard.insertText('ng');
    await expect(search).toHaveValue('ng');
    const rows = page.locator('table.roster tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Cy Ng');
    await context.close();
  });

  test('with JavaScript off, a viewer sees the board with its score, teams and clock', async ({
    browser,
    request,
  }) => {
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: 'Server Cup',
      sportID: 2,
      gamePeriod: 'Q2',
      homeTeamName: 'Harbour Hawks',
      awayTeamName: 'Valley Owls',
      homeScore: 41,
      awayScore: 38,
      homeFouls: 3,
      awayFouls: 5,
    });
    await keeper.call('POST', `/games/${gameKey}/clock`, { formattedTime: '4:12', seconds: 252 });

    for (const [name, opts] of [
      ['desktop', {}],
      ['phone', PHONE],
    ] as const) {
      const { page, close } = await openPage(browser, `${BASE}/viewscoreboard/${gameKey}`, {
        ...opts,
        javaScriptEnabled: false,
      });
      const board = page.getByRole('region', { name: 'Scoreboard' });
      await expect(board.getByRole('heading', { name: 'Server Cup' })).toBeVisible();
      await expect(board.getByLabel('Harbour Hawks score 41')).toBeVisible();
      await expect(board.getByLabel('Valley Owls score 38')).toBeVisible();
      await expect(board.getByLabel('Period Q2')).toBeVisible();
      await expect(board.getByLabel('Clock 4:12')).toBeVisible();
      // Styled without any script: the board's own stylesheet came with the HTML.
      await expect(board.locator('.board-score').first()).not.toHaveCSS('font-size', '16px');
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await screenshot(page, `ssr-board-nojs-${name}`);
      await close();
    }
  });

  test('the mini card is server-rendered too, without the menu', async ({ browser, request }) => {
    const { gameKey } = await keeperWithGame(request, {
      gameName: 'Mini Final',
      homeTeamName: 'Reds',
      awayTeamName: 'Blues',
      homeScore: 2,
      awayScore: 2,
    });
    const { page, close } = await openPage(browser, `${BASE}/viewscoreboardmini/${gameKey}`, {
      javaScriptEnabled: false,
    });
    const card = page.locator('.summary-card');
    await expect(card).toContainText('Mini Final');
    await expect(card).toContainText('Reds');
    await expect(card).toContainText('Blues');
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await close();
  });

  test('with JavaScript, the board shows at once, never flashes Loading, and goes on live', async ({
    browser,
    request,
  }) => {
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: 'Takeover Derby',
      sportID: 3,
      gamePeriod: '1st Half',
      homeTeamName: '</script><script>alert(1)</script>',
      awayTeamName: 'Line\u2028Separators',
      homeScore: 1,
      awayScore: 0,
    });

    let current = 1;
    for (const [name, opts] of [
      ['desktop', {}],
      ['phone', PHONE],
    ] as const) {
      const { page, close } = await openPage(browser, `${BASE}/viewscoreboard/${gameKey}`, opts);
      let dialog = false;
      page.on('dialog', (d) => {
        dialog = true;
        void d.dismiss();
      });
      const board = page.getByRole('region', { name: 'Scoreboard' });
      await expect(
        board.getByLabel(`</script><script>alert(1)</script> score ${current}`),
      ).toBeVisible();
      // The app has taken over: its socket is open and subscribed (the watcher count is an
      // API call the client makes once its page has mounted).
      await expect(page.locator('.watchers')).toBeVisible();
      await expect(page).toHaveTitle('Takeover Derby · Sagan');
      // A scorekeeper's write reaches the taken-over page live.
      const score = ++current;
      await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: score });
      await expect(
        board.getByLabel(`</script><script>alert(1)</script> score ${score}`),
      ).toBeVisible();
      await expect(board.getByText('Line\u2028Separators')).toBeVisible();
      expect(
        await page.evaluate(() => (window as unknown as { __loadingSeen: number }).__loadingSeen),
      ).toBe(0);
      expect(
        await page.evaluate(() => (window as unknown as { __boardGone: number }).__boardGone),
      ).toBe(0);
      expect(dialog).toBe(false);
      await screenshot(page, `ssr-board-js-${name}`);
      await close();
    }
  });

  test('an unknown game is a friendly not-found at once', async ({
    browser,
    allowConsoleError,
  }) => {
    allowConsoleError(/no-such-game: Failed to load resource: .* 404/, 'the page answers 404');
    const { page, close } = await openPage(browser, `${BASE}/viewscoreboard/no-such-game`, {});
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    await expect(page.getByText('We could not find this scoreboard.')).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { __loadingSeen: number }).__loadingSeen),
    ).toBe(0);
    await close();
  });

  test("a tag's list and the dashboard are server-rendered with their games, taken over without a flash", async ({
    browser,
    request,
  }) => {
    const name = unique('Listed Cup');
    const { keeper, gameKey } = await keeperWithGame(request, { gameName: name, homeScore: 3 });
    const tag = `ssr${Math.random().toString(36).slice(2, 8)}`;
    const { tags } = (await keeper.call('PUT', `/games/${gameKey}/tags`, { tags: [tag] })) as {
      tags: { key: string }[];
    };
    const context = await browser.newContext();
    await context.addInitScript(WATCH_FLASH);
    const page = await context.newPage();
    const release = await openHeld(page, `/taggedscoreboards/${tags[0]!.key}`);
    // The server's markup, the app's code held back: the game is already there.
    const card = page.locator('.summary-card', { hasText: name });
    await expect(card.locator('.summary-score').first()).toHaveText('3');
    await tookOver(page, card, release);
    // Taken over and subscribed: a write reaches the list live.
    await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: 4 });
    await expect(card.locator('.summary-score').first()).toHaveText('4');

    // The dashboard: its current games and tags are in the HTML, never a Loading.
    const releaseHome = await openHeld(page, '/');
    const games = page.getByRole('list', { name: 'Current Games' });
    await expect(games.locator('.summary-card').first()).toBeVisible();
    await expect(page.getByRole('list', { name: 'Popular Tags' })).toBeVisible();
    // The operator's Apps card (this server has an APPS_URL) is in the HTML too: nothing swaps.
    const apps = page.locator('.feature-cards').getByRole('link', { name: /^Apps/ });
    await expect(apps).toBeVisible();
    await tookOver(page, games, releaseHome);
    await expect(apps).toBeVisible();
    await expect(page.getByRole('list', { name: 'Current Games' })).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { __loadingSeen: number }).__loadingSeen),
    ).toBe(0);
    await context.close();
  });

  test("Scoreboards is rendered with the signed-in user's own games, taken over without a flash", async ({
    browser,
    request,
  }) => {
    const who = unique('Board owner');
    const keeper = await apiAs(request, who);
    const name = unique('My Rendered Cup');
    const gameKey = await createGame(keeper, { gameName: name, homeScore: 2 });
    const context = await browser.newContext();
    await context.addInitScript(WATCH_FLASH);
    const page = await context.newPage();
    await signIn(page, who);
    const release = await openHeld(page, `/scoreboards`);
    // The server's markup, the app's code held back: the user's own game is already there.
    const mine = page.getByRole('list', { name: 'My Games' });
    const card = mine.locator('.summary-card', { hasText: name });
    await expect(card.locator('.summary-score').first()).toHaveText('2');
    await tookOver(page, card, release);
    // Taken over and subscribed from the rendered numbers: a write reaches the list live.
    await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: 5 });
    await expect(card.locator('.summary-score').first()).toHaveText('5');
    expect(
      await page.evaluate(() => (window as unknown as { __loadingSeen: number }).__loadingSeen),
    ).toBe(0);
    await context.close();
  });

  test('a running clock shows its time before the app takes over, and goes on', async ({
    browser,
    request,
  }) => {
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: 'Running Final',
      sportID: 2,
    });
    await keeper.call('POST', `/games/${gameKey}/clock/control`, {
      action: 'set',
      seconds: 600,
      direction: 'down',
    });
    await keeper.call('POST', `/games/${gameKey}/clock/control`, { action: 'start' });
    const context = await browser.newContext();
    const page = await context.newPage();
    const release = await openHeld(page, `/viewscoreboard/${gameKey}`);
    // The cached HTML holds no time; after-paint.js fills the slot in from the clock's state.
    const clock = page.getByRole('timer');
    await expect(clock).toHaveText(/^(10:00|9:[0-5]\d)$/);
    const first = await clock.textContent();
    await expect(clock).not.toHaveText(first!);
    await expect(clock).toHaveText(/^9:[0-5]\d$/);
    await tookOver(page, clock, release);
    await expect(page).toHaveTitle('Running Final · Sagan');
    await expect(clock).toHaveText(/^9:[0-5]\d$/);
    await context.close();
  });
});
