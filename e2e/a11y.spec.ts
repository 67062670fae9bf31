import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe.ts';
import { test, expect, unique, BASE, apiAs, signIn, openPage } from './fixtures.ts';
import { keeperWithGame } from './seed.ts';
import { seedEveryScreen } from './every-screen.ts';
import { brokenWordProblems, iconContrastProblems } from './layout-checks.ts';

// Every screen of SPEC §2, walked once, each screen checked in both colour schemes on one page
// load (a load costs far more than the checks): opened in one, then the system setting
// switched to the other, which the app follows while the page is open (use-theme.ts):
// - no serious or critical axe-core violation: every rule in the light theme; in the dark
//   theme, and on the board in bright-sun mode, colour contrast (a theme changes colours only);
// - no Content-Security-Policy violation. Our CSP allows no eval; zod probes for it (new
//   Function) unless told to be jitless, and every page then filed a script-src violation
//   although nothing broke;
// - every icon control has 3:1 against what is behind it, in both themes (layout-checks.ts);
// - at 390 and 320 px, no control named by one word is broken over two lines or cut off (in
//   the light theme: a theme changes colours, not sizes). The same page load serves each width.
// The mini card is drawn without the layout, which is what follows the setting: it is opened
// again in the other scheme.

/** Collects the page's CSP violation reports, from its first script on. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const consoleCsp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleCsp.push(m.text());
  });
  return async () => [
    ...(await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    )),
    ...consoleCsp.splice(0),
  ];
}

/** Screens drawn without the layout (the mini card, for embedding): no theme follows them. */
const WITHOUT_LAYOUT = /^\/viewscoreboardmini\//;

test('every screen in the light and the dark theme passes axe and the icon and phone-width checks, with no CSP violation', async ({
  page,
  request,
  allowConsoleError,
}) => {
  // About a minute alone (23 screens through axe in two themes); more beside the other worker.
  test.setTimeout(300_000);
  allowConsoleError(
    /\/no-such-page: Failed to load resource: .*\b404\b/,
    'the server answers an unknown path with a 404 status (true for crawlers too), which Chromium logs',
  );
  const name = unique('A11y');
  const me = await apiAs(request, name);
  await signIn(page, name);
  const { gameKey, screens } = await seedEveryScreen(me);
  const cspReports = await watchCsp(page);

  const csp: string[] = [];
  const icons = { light: [] as string[], dark: [] as string[] };
  const words: string[] = [];
  for (const [i, [path, ready]] of screens.entries()) {
    // Every other screen is opened dark: each theme is then both set as a page opens
    // (theme-init.js) and followed while it is open (use-theme.ts), each way.
    const themes = i % 2 ? (['dark', 'light'] as const) : (['light', 'dark'] as const);
    for (const [n, scheme] of themes.entries()) {
      await page.emulateMedia({ colorScheme: scheme });
      if (n === 0 || WITHOUT_LAYOUT.test(path)) {
        await page.goto(`${BASE}${path}`);
        await expect(page.getByText(ready).first()).toBeVisible();
        await page.waitForLoadState('networkidle');
      }
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      const contrastOnly = scheme === 'dark';
      await expectNoSeriousViolations(page, `${path} (${scheme})`, { contrastOnly });
      for (const p of await iconContrastProblems(page)) icons[scheme].push(`${path}: ${p}`);
      if (!contrastOnly) {
        // A play count's own column: a parent on a small phone sees it without scrolling.
        const columns = /^\/playcount(season|share)\//.test(path) ? ['Plays'] : [];
        for (const p of await brokenWordProblems(page, columns)) words.push(`${path}: ${p}`);
      }
    }
    for (const v of await cspReports()) csp.push(`${path}: ${v}`);
  }
  // The outdoor board.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await page.getByRole('button', { name: 'Bright sun' }).click();
  await expect(page.locator('.sun-mode')).toBeVisible();
  await expectNoSeriousViolations(page, 'scoreboard (bright sun)', { contrastOnly: true });
  expect(csp, `CSP violations over ${screens.length} pages`).toEqual([]);
  expect(icons.light, 'icon controls under 3:1 (light)').toEqual([]);
  expect(icons.dark, 'icon controls under 3:1 (dark)').toEqual([]);
  expect(words, 'one-word controls broken or cut off at phone width').toEqual([]);
});

test('the top menu, the theme toggle and the scoreboard work by keyboard', async ({
  page,
  request,
}) => {
  const { gameKey } = await keeperWithGame(request, { gameName: 'Keyboard cup' });
  await page.emulateMedia({ colorScheme: 'light' });
  await openPage(page, '/');
  await expect(page.getByText('Current Games')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter'); // the skip link moves focus to the page
  await expect(page.locator('main')).toBeFocused();
  const toggle = page.getByRole('button', { name: 'Dark mode' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  // Remembered, and applied by theme-init.js before the app runs (no flash).
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Space'); // nothing focused: no effect, no error
  // The bright-sun board toggles from the keyboard, and stays on for the next game.
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  // The board is server-rendered: its buttons work once the app has taken over (the title is
  // the client's).
  await expect(page).toHaveTitle('Keyboard cup · Sagan');
  const sun = page.getByRole('button', { name: 'Bright sun' });
  await sun.focus();
  await page.keyboard.press('Space');
  await expect(sun).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.scoreboard-page.sun-mode')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Bright sun' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});
