import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from '@playwright/test';
import { test, expect, BASE, unique, screenshot } from './fixtures.ts';
import { keeperWithGame } from './seed.ts';
import { BASE_URL } from './playwright.config.ts';

// Clickjacking: another site may frame the mini card and nothing else, and a framed page never
// becomes a screen with menus or buttons, whatever it is navigated to.

/**
 * Another site (localhost is another origin and site than the app's 127.0.0.1), served from
 * this machine: Chromium refuses a public page, as a routed one counts, framing a local
 * address, whatever our headers say. Its page frames the path in its query.
 */
let framer: http.Server;
let FRAMER = '';

test.beforeAll(async () => {
  framer = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').searchParams.get('path') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Another site</title>
      <iframe id="embed" src="${BASE_URL}${path}" width="600" height="400"
        onload="this.dataset.loaded = '1'"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  FRAMER = `http://localhost:${(framer.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => framer.close(() => resolve())));

test.use({
  allowConsoleErrors: [
    {
      match: /Refused to frame|frame-ancestors|favicon\.ico/,
      reason:
        'the browser reports each frame our Content-Security-Policy refuses; the other site has no icon',
    },
  ],
});

/** Opens another site's page framing `path` of ours; answers the frame once it has loaded. */
async function framed(page: Page, path: string): Promise<Frame> {
  await page.goto(`${FRAMER}/?path=${encodeURIComponent(path)}`);
  await expect(page.locator('#embed')).toHaveAttribute('data-loaded', '1');
  const frame = await (await page.locator('#embed').elementHandle())?.contentFrame();
  if (!frame) throw new Error('no frame');
  return frame;
}

test('another site frames the mini card, and it shows the live card', async ({ page, request }) => {
  const name = unique('Framed Game');
  const { gameKey } = await keeperWithGame(request, { gameName: name, homeScore: 7 });
  const frame = await framed(page, `${BASE}/viewscoreboardmini/${gameKey}`);
  await expect(frame.getByRole('link', { name: new RegExp(name) })).toBeVisible();
  await screenshot(page, 'framing-mini-card');
});

test('a path under the mini card prefix is refused by the browser when framed', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 404/, 'the path is no page of the app: its answer is a 404');
  // The whole app, menus and all, used to render here inside the frame.
  const frame = await framed(page, `${BASE}/viewscoreboardmini/x/y`);
  expect(frame.url()).not.toContain(BASE);
  await expect(frame.locator('nav')).toHaveCount(0);
});

test('a framed mini card navigated to another screen shows a refusal, not the screen', async ({
  page,
  request,
}) => {
  const { gameKey } = await keeperWithGame(request, { gameName: unique('Framed Game') });
  const frame = await framed(page, `${BASE}/viewscoreboardmini/${gameKey}`);
  await expect(frame.getByRole('link')).toHaveCount(1);
  // A client-side navigation, as a link or script inside the page would make one.
  await frame.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, `${BASE}/teamsheets`);
  await expect(frame.getByText('This page cannot be shown inside another site.')).toBeVisible();
  await expect(frame.getByRole('navigation')).toHaveCount(0);
  await expect(frame.getByRole('button')).toHaveCount(0);
  const open = frame.getByRole('link', { name: 'Open it on Sagan' });
  await expect(open).toHaveAttribute('target', '_blank');
  await expect(open).toHaveAttribute('href', `${BASE}/teamsheets`);
  await screenshot(page, 'framing-refusal');
});

test('the same screen outside a frame is the app as usual', async ({ page }) => {
  await page.goto(`${BASE}/teamsheets`);
  await expect(page.getByRole('navigation').first()).toBeVisible();
  await expect(page.getByText('This page cannot be shown inside another site.')).toHaveCount(0);
});
