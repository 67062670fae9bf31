import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, unique, BASE, API, apiAs, signIn, screenshot } from './fixtures.ts';
import { createTeam } from './seed.ts';
import { board, newGame, PHONE, saved, status, tap, viewerOf } from './scorekeeper-helpers.ts';

// The input screens on a phone at the side of a field (DESIGN §10): they open offline after one
// online visit, right after the game or count is made; what was queued survives a reload; and on
// a shared device one person's queue and kept games are never another's.

test.use({ viewport: PHONE, hasTouch: true });

const OFFLINE_ERRORS = {
  match: /WebSocket|ERR_INTERNET_DISCONNECTED/,
  reason: 'offline, the page tries its live connection and the session check, and Chromium logs it',
};

/** The input screens' service worker for `path` has installed (it caches the shell first). */
async function workerReady(page: Page, path: string): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(
        async (url) => (await navigator.serviceWorker.getRegistration(url))?.active?.state,
        `${BASE}${path}`,
      ),
    )
    .toBe('activated');
}

/** The rows of one of the app's IndexedDB stores ([] when it has none). */
function rowsOf<T>(page: Page, db: string, store: string): Promise<T[]> {
  return page.evaluate(
    async ({ db, store }) => {
      // Opening a database that is not there would make it, empty, under the app's feet.
      if (!(await indexedDB.databases()).some((d) => d.name === db)) return [];
      return new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open(db);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const conn = open.result;
          if (!conn.objectStoreNames.contains(store)) {
            conn.close();
            resolve([]);
            return;
          }
          const all = conn.transaction(store).objectStore(store).getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            conn.close();
            resolve(all.result as T[]);
          };
        };
      });
    },
    { db, store },
  );
}

/** What this device keeps of the user's games and counts: `uid name` pairs. */
const kept = async (page: Page) =>
  (await rowsOf<{ uid: string; name: string }>(page, 'sagan-kept', 'states')).map(
    (r) => `${r.uid} ${r.name}`,
  );

/** The outbox's stored intents: whose, and of which stream. */
const queued = async (page: Page) =>
  (await rowsOf<{ owner?: string; stream: string }>(page, 'sagan-outbox', 'intents')).map(
    (r) => `${r.owner} ${r.stream}`,
  );

/** What the scorekeeper once kept in localStorage, for everyone who used the device. */
const localGames = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('sagan:scoregame:')));

/** A coach's team of three through the API (as the phone app would); answers its key. */
async function teamOfThree(request: APIRequestContext, coach: string) {
  const phone = await apiAs(request, coach);
  const teamKey = await createTeam(phone, {
    teamName: unique('Owls'),
    players: ['1 Ann Lee', '2 Bo Ray', '3 Cy Dee'],
  });
  return { teamKey, call: phone.call };
}

test.describe('opened again offline', () => {
  test.use({ allowConsoleErrors: [OFFLINE_ERRORS] });
  test.describe.configure({ timeout: 90_000 });

  test('right after "Create and start scoring", the scorer reopens offline and keeps its taps', async ({
    page,
    context,
    browser,
  }) => {
    const { uid } = await signIn(page, unique('Sideline keeper'));
    const { gameKey } = await newGame(page, 'Basketball');
    // One online visit, no second one: the worker has the shell, the device the game.
    await workerReady(page, `/scoregame/${gameKey}`);
    await expect.poll(() => kept(page)).toContain(`${uid} scoregame:${gameKey}`);

    await context.setOffline(true);
    await page.reload();
    await expect(board(page).getByLabel('Lions score 0')).toBeVisible();
    await expect(status(page)).toHaveText('Offline');
    await tap(page, 'Lions +1', 'Lions +1', 'Lions +1');
    await expect(status(page)).toHaveText('Offline, 3 changes waiting');
    await expect(board(page).getByLabel('Lions score 3')).toBeVisible();

    // A tap and a reload in the same moment, before the browser's database could have kept it:
    // the tap is still queued when the page opens again.
    await page
      .getByRole('button', { name: 'Lions +1', exact: true })
      .evaluate((button: HTMLElement) => {
        button.click();
        location.reload();
      });
    await page.waitForLoadState();
    await expect(status(page)).toHaveText('Offline, 4 changes waiting');
    await expect(board(page).getByLabel('Lions score 4')).toBeVisible();

    // A reload, then a closed tab opened again: the taps are still queued, and still shown.
    await page.reload();
    await expect(status(page)).toHaveText('Offline, 4 changes waiting');
    await page.close();
    const again = await context.newPage();
    await again.goto(`${BASE}/scoregame/${gameKey}`);
    await expect(status(again)).toHaveText('Offline, 4 changes waiting');
    await expect(board(again).getByLabel('Lions score 4')).toBeVisible();
    await screenshot(again, 'scorekeeper-reopened-offline');

    await context.setOffline(false);
    await saved(again);
    const viewer = await viewerOf(browser, gameKey);
    await expect(board(viewer).getByLabel('Lions score 4')).toBeVisible();
  });

  test('right after starting a count, the sideline counter and its details reopen offline', async ({
    page,
    context,
    request,
  }) => {
    const coach = unique('Coach');
    const { teamKey, call } = await teamOfThree(request, coach);
    const { uid } = await signIn(page, coach);
    await page.goto(`${BASE}/playcounts/new`);
    await page.getByLabel('Team').selectOption(teamKey);
    await page.getByLabel('Game name').fill('Owls at Larks');
    await page.getByRole('button', { name: 'Start counting' }).click();
    await expect(page).toHaveURL(/\/playcount\/[A-Za-z0-9_-]+\/count$/);
    const gameKey = page.url().split('/').at(-2)!;
    const sync = page.getByRole('status').first();
    await expect(sync).toContainText('0 snaps counted, all saved');
    for (const name of ['Ann Lee', 'Bo Ray']) {
      await page
        .getByRole('region', { name: /^Sideline/ })
        .getByRole('button', { name: new RegExp(name) })
        .click();
    }
    await workerReady(page, `/playcount/${gameKey}/count`);
    await expect.poll(() => kept(page)).toContain(`${uid} playcount:${gameKey}`);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Owls at Larks');
    await expect(sync).toContainText('Offline.');
    const onField = page.getByRole('region', { name: /^On Field/ });
    await expect(onField.getByRole('button')).toHaveCount(2);
    await page.getByRole('button', { name: /^Snap/ }).click();
    await expect(sync).toContainText('1 snap waiting to be sent');
    await expect(onField.getByRole('button', { name: /^#1 Ann Lee, 1 play:/ })).toBeVisible();
    await screenshot(page, 'playcount-reopened-offline');

    // The count's details page, opened offline too; then the counter again, its snap still queued.
    await page.goto(`${BASE}/playcount/${gameKey}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Owls at Larks');
    await expect(page.getByRole('link', { name: 'Count plays' })).toBeVisible();
    await page.goto(`${BASE}/playcount/${gameKey}/count`);
    await expect(sync).toContainText('1 snap waiting to be sent');
    expect(((await call('GET', `/playcounts/${gameKey}`)) as { snaps: unknown[] }).snaps).toEqual(
      [],
    );

    await context.setOffline(false);
    await expect(sync).toContainText('1 snap counted, all saved', { timeout: 30_000 });
    expect(
      ((await call('GET', `/playcounts/${gameKey}`)) as { snaps: unknown[] }).snaps,
    ).toHaveLength(1);

    // Signing out deletes what the device kept of the user's counts.
    await page.getByRole('button', { name: coach }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect.poll(() => kept(page)).toEqual([]);
  });

  test('a shared device: the first user’s queue is neither sent as the next user nor dropped, and goes when they sign in again', async ({
    page,
    context,
    browser,
    allowConsoleError,
  }) => {
    allowConsoleError(
      /\/games\/[^/]+\/sheets: .*403/,
      "Ann's tab belongs to Bob once he signs in: the game's team sheets are refused to him",
    );
    const ann = unique('Ann');
    const { uid: annUid } = await signIn(page, ann);
    const { gameKey } = await newGame(page, 'Basketball');
    await expect.poll(() => kept(page)).toContain(`${annUid} scoregame:${gameKey}`);
    const writes: string[] = [];
    context.on('request', (r) => {
      // Any write to the game (a PATCH today; however the outbox's stream builds it).
      if (r.method() !== 'GET' && r.url().includes(`${API}/games/${gameKey}`)) writes.push(r.url());
    });

    // Ann's phone (this tab) is in a dead zone; she taps three times.
    const annTab = await context.newCDPSession(page);
    const network = (offline: boolean) =>
      annTab.send('Network.emulateNetworkConditions', {
        offline,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    await network(true);
    await tap(page, 'Lions +1', 'Lions +1', 'Lions +1');
    await expect(status(page)).toHaveText('Offline, 3 changes waiting');

    // Bob signs in on the same device, in another tab.
    const bob = unique('Bob');
    const other = await context.newPage();
    const { uid: bobUid } = await signIn(other, bob);
    await other.goto(`${BASE}/scoreboards`);
    await expect(other.getByRole('button', { name: bob })).toBeVisible();
    // What was kept of Ann's game is gone from the device; her queue is not.
    await expect.poll(() => kept(other)).toEqual([]);
    expect(await localGames(other)).toEqual([]);
    // Ann's tab now belongs to Bob: her taps are not his to see or send.
    await expect(status(page)).toHaveText('Offline');

    // The network is back: nothing is sent as Bob, nothing is dropped.
    await network(false);
    // Back online, the tab shows Bob's (empty) queue, or the not-found page once its live
    // connection is back as Bob's: either way it has seen the network return.
    await expect(
      status(page)
        .filter({ hasText: 'All changes saved' })
        .or(page.getByRole('heading', { name: 'Not found' })),
    ).toBeVisible();
    expect(writes).toEqual([]);
    expect(await queued(other)).toEqual(Array(3).fill(`${annUid} game:${gameKey}`));
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(bobUid).not.toBe(annUid);

    // Ann signs in again on this device: her three taps go, as hers.
    await signIn(other, ann);
    await other.reload();
    await expect(other.getByRole('button', { name: ann })).toBeVisible();
    await expect.poll(() => queued(other)).toEqual([]);
    expect(writes).toHaveLength(3);
    const viewer = await viewerOf(browser, gameKey);
    await expect(board(viewer).getByLabel('Lions score 3')).toBeVisible();
  });
});

test('a session that ended while the device was away: its kept games are deleted at the next visit', async ({
  page,
}) => {
  const { uid } = await signIn(page, unique('Away keeper'));
  const { gameKey } = await newGame(page, 'Soccer');
  await expect.poll(() => kept(page)).toContain(`${uid} scoregame:${gameKey}`);
  // "Sign out everywhere" from another device: this tab is not told (it is on no page of ours).
  await page.goto('about:blank');
  const ended = await page.request.post(`${API}/auth/logout-all`, {
    headers: { 'x-sagan-request': '1' },
  });
  expect(ended.status()).toBe(200);
  await page.goto(`${BASE}/scoreboards`);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect.poll(() => kept(page)).toEqual([]);
});
