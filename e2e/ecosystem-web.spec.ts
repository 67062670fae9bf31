import { PNG } from 'pngjs';
import {
  test,
  expect,
  unique,
  BASE,
  API,
  apiAs,
  signIn,
  screenshot,
  openPage,
} from './fixtures.ts';
import { keeperWithGame, createTeam } from './seed.ts';

// In the browser: children's privacy on public sheets, the installable manifest, the
// API docs page under our CSP, and how dark mode and the bright-sun board look.

function pngDataUrl(): string {
  const png = new PNG({ width: 40, height: 40 });
  png.data.fill(200);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

test('privacy options change what an anonymous visitor receives and sees', async ({
  page,
  browser,
  request,
}) => {
  const name = unique('Privacy coach');
  const owner = await apiAs(request, name);
  const teamKey = await createTeam(owner, { teamName: 'Otters U9' });
  const player = (await owner.call('PUT', `/teams/${teamKey}/players/-1`, {
    jersey: '4',
    playerName: 'Maya Fernández',
    playerNotes: '',
  })) as { key: string };
  await owner.call('PUT', `/teams/${teamKey}/players/${player.key}/photo`, {
    dataUrl: pngDataUrl(),
  });
  const { publishedAsKey } = (await owner.call('POST', `/teams/${teamKey}/publish`)) as {
    publishedAsKey: string;
  };

  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  const publicJson = async () =>
    (await (await anon.request.get(`${API}/rosters/${publishedAsKey}`)).text()) as string;
  expect(await publicJson()).toContain('Maya Fernández');
  const photoPath = `/api/rosters/${publishedAsKey}/players/${player.key}/photo`;
  expect(await publicJson()).toContain(photoPath);
  expect((await anon.request.get(`${BASE}${photoPath}`)).status()).toBe(200);
  await anon.goto(`${BASE}/teamsheets/${publishedAsKey}`);
  await expect(anon.getByText('Maya Fernández')).toBeVisible();

  // The owner ticks both boxes on the edit screen.
  await signIn(page, name);
  await page.goto(`${BASE}/teamsheetedit/${teamKey}`);
  await page.getByLabel('Show initials instead of full names').check();
  await expect(page.getByText('Saved')).toBeVisible();
  await page.getByLabel('Hide photos').check();
  await expect(page.getByLabel('Hide photos')).toBeChecked();
  await expect(page.getByText('Saved')).toBeVisible();
  await screenshot(page, 'ecosystem-privacy-options');

  const after = await publicJson();
  expect(after).not.toContain('Maya');
  expect(after).not.toContain('Fernández');
  expect(after).not.toContain('/photo');
  // Hidden means gone, not merely unlinked: the photo's URL answers 404 at once.
  expect((await anon.request.get(`${BASE}${photoPath}`)).status()).toBe(404);
  expect(JSON.parse(after).roster[0]).toMatchObject({ playerName: 'M. F.', imageURL: '' });
  // The open public page updates live; the player page too, with the missing-avatar image.
  await expect(anon.getByText('M. F.')).toBeVisible();
  await expect(anon.getByText('Maya')).toHaveCount(0);
  await anon.goto(`${BASE}/teamsheets/${publishedAsKey}/${player.key}`);
  await expect(anon.getByText('#4 - M. F.')).toBeVisible();
  await expect(anon.locator('img[src*="/photo"]')).toHaveCount(0);
  await screenshot(anon, 'ecosystem-privacy-public-player');
  // The owner still sees everything on the private screen.
  await page.reload();
  await expect(page.getByText('Maya Fernández')).toBeVisible();
  await visitor.close();
});

test('the viewer is installable: manifest and icons', async ({ page, request }) => {
  await openPage(page, '/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe(`${BASE}/manifest.webmanifest`);
  const manifest = (await (await request.get(href!)).json()) as {
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string }[];
  };
  expect(manifest).toMatchObject({ start_url: `${BASE}/`, display: 'standalone' });
  for (const size of [192, 512]) {
    const icon = manifest.icons.find(
      (i) => i.sizes === `${size}x${size}` && i.type === 'image/png',
    );
    expect(icon, `${size} icon`).toBeTruthy();
    const res = await request.get(icon!.src);
    expect(res.headers()['content-type']).toBe('image/png');
    const png = PNG.sync.read(await res.body());
    expect([png.width, png.height]).toEqual([size, size]);
  }
});

test('the API docs page works under our CSP and covers the companion-app contract', async ({
  page,
  request,
  consoleErrors,
}) => {
  await page.goto(`${API}/docs`);
  await expect(page.getByRole('heading', { name: /Sagan API/ })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(`${API}/games/{gameKey}/clock`).first()).toBeVisible();
  // The page runs: no script was refused, and an operation opens with its schema.
  expect(
    consoleErrors.filter((e) => /script/i.test(e) && /Content Security Policy/i.test(e)),
  ).toEqual([]);
  await page.getByText(`${API}/games/{gameKey}/clock`).first().click();
  await expect(page.getByRole('button', { name: 'Try it out' })).toBeVisible();
  await expect(page.getByText('formattedTime').first()).toBeVisible();
  await screenshot(page, 'ecosystem-api-docs');

  const doc = (await (await request.get(`${API}/docs/json`)).json()) as {
    paths: Record<
      string,
      Record<string, { requestBody?: unknown; responses?: Record<string, { content?: unknown }> }>
    >;
  };
  // DESIGN §6 contract, as the companion apps call it.
  const contract: [string, string][] = [
    ['post', `${API}/auth/google`],
    ['post', `${API}/auth/local`],
    ['post', `${API}/auth/logout`],
    ['get', `${API}/auth/me`],
    ['post', `${API}/games`],
    ['patch', `${API}/games/{gameKey}`],
    ['post', `${API}/games/{gameKey}/clock`],
    ['post', `${API}/games/{gameKey}/comments`],
    ['put', `${API}/games/{gameKey}/tags`],
    ['get', `${API}/games/{gameKey}/messages`],
    ['put', `${API}/playcounts/{gameKey}`],
    ['patch', `${API}/playcounts/{gameKey}`],
    ['put', `${API}/teams/{teamKey}/privacy`],
  ];
  for (const [method, path] of contract) {
    expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeTruthy();
  }
  // Every endpoint that takes a body documents its schema (from the shared zod schemas).
  expect(doc.paths[`${API}/games/{gameKey}`]!.patch!.requestBody).toBeTruthy();
  expect(JSON.stringify(doc.paths[`${API}/playcounts/{gameKey}`]!.put!.requestBody)).toContain(
    'snapCount',
  );
});

test('dark mode and the bright-sun board, on a desktop and a phone', async ({ page, request }) => {
  const { keeper, gameKey } = await keeperWithGame(request, {
    gameName: 'Harbour derby',
    sportID: 2,
    homeTeamName: 'Otters',
    awayTeamName: 'Seals',
    gamePeriod: 'Q4',
  });
  await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: 61, awayScore: 58, homeFouls: 4 });
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: 'dark' });
    await openPage(page, '/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByText('Harbour derby').first()).toBeVisible();
    await screenshot(page, `ecosystem-dark-dashboard-${size}`);
    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    await expect(page.locator('.board')).toContainText('61');
    await screenshot(page, `ecosystem-dark-scoreboard-${size}`);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Bright sun' }).click();
    await screenshot(page, `ecosystem-sun-scoreboard-${size}`);
    await page.getByRole('button', { name: 'Bright sun' }).click();
  }
});

test('score changes are announced politely, throttled', async ({ page, request }) => {
  const { keeper, gameKey } = await keeperWithGame(request, {
    homeTeamName: 'Otters',
    awayTeamName: 'Seals',
    gamePeriod: 'Q1',
  });
  // The page's clock runs with real time but can be moved on: the rest of the 5-s interval is
  // skipped instead of waited out.
  await page.clock.install();
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  const live = page.getByTestId('score-announcer');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  await expect(live).toHaveText('');
  await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: 1 });
  await expect(live).toHaveText('Otters 1, Seals 0, Q1.');
  // Every announcement from here on, so that a burst said twice (or a score in between) shows.
  await live.evaluate((el) => {
    const said: string[] = [];
    (window as unknown as { announced: string[] }).announced = said;
    new MutationObserver(() => said.push(el.textContent ?? '')).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  // A burst of changes within the interval is one announcement of the latest score: the board
  // shows the burst while the announcement still says the score before it.
  await keeper.call('PATCH', `/games/${gameKey}`, { homeScore: 2 });
  await keeper.call('PATCH', `/games/${gameKey}`, { awayScore: 1 });
  await expect(page.getByLabel('Seals score 1')).toBeVisible();
  await expect(page.getByLabel('Otters score 2')).toBeVisible();
  await expect(live).toHaveText('Otters 1, Seals 0, Q1.');
  await page.clock.fastForward(5000);
  await expect(live).toHaveText('Otters 2, Seals 1, Q1.');
  expect(
    await page.evaluate(() => (window as unknown as { announced: string[] }).announced),
  ).toEqual(['Otters 2, Seals 1, Q1.']);
});
