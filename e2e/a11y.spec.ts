import type { Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe.ts';
import { test, expect, unique, BASE, apiAs, signIn, openPage } from './fixtures.ts';
import { keeperWithGame } from './seed.ts';
import { seedEveryScreen } from './every-screen.ts';
import { brokenWordProblems, iconContrastProblems } from './layout-checks.ts';

// Every screen of SPEC §2, walked once per colour scheme (the two walks run side by side):
// - no serious or critical axe-core violation: every rule in the light theme; in the dark
//   theme, and on the board in bright-sun mode, colour contrast (a theme changes colours only);
// - no Content-Security-Policy violation. Our CSP allows no eval; zod probes for it (new
//   Function) unless told to be jitless, and every page then filed a script-src violation
//   although nothing broke;
// - every icon control has 3:1 against what is behind it, in both themes (layout-checks.ts);
// - at 390 and 320 px, no control named by one word is broken over two lines or cut off (in
//   the light walk: a theme changes colours, not sizes). The same page load serves each width.

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

for (const scheme of ['light', 'dark'] as const) {
  test(`every screen in the ${scheme} theme passes axe and the icon and phone-width checks, with no CSP violation`, async ({
    page,
    request,
    allowConsoleError,
  }) => {
    // About a minute alone (17 screens through axe); more beside the other worker.
    test.setTimeout(300_000);
    allowConsoleError(
      /\/no-such-page: Failed to load resource: .*\b404\b/,
      'the server answers an unknown path with a 404 status (true for crawlers too), which Chromium logs',
    );
    const name = unique(`A11y ${scheme}`);
    const me = await apiAs(request, name);
    await signIn(page, name);
    const { gameKey, screens } = await seedEveryScreen(me);
    const cspReports = await watchCsp(page);
    const contrastOnly = scheme === 'dark';

    await page.emulateMedia({ colorScheme: scheme });
    const csp: string[] = [];
    const icons: string[] = [];
    const words: string[] = [];
    for (const [path, ready] of screens) {
      await page.goto(`${BASE}${path}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await expect(page.getByText(ready).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSeriousViolations(page, `${path} (${scheme})`, { contrastOnly });
      for (const v of await cspReports()) csp.push(`${path}: ${v}`);
      for (const p of await iconContrastProblems(page)) icons.push(`${path}: ${p}`);
      if (!contrastOnly) {
        // A play count's own column: a parent on a small phone sees it without scrolling.
        const columns = /^\/playcount(season|share)\//.test(path) ? ['Plays'] : [];
        for (const p of await brokenWordProblems(page, columns)) words.push(`${path}: ${p}`);
      }
    }
    if (scheme === 'dark') {
      // The outdoor board.
      await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
      await page.getByRole('button', { name: 'Bright sun' }).click();
      await expect(page.locator('.sun-mode')).toBeVisible();
      await expectNoSeriousViolations(page, 'scoreboard (bright sun)', { contrastOnly });
    }
    expect(csp, `CSP violations over ${screens.length} pages`).toEqual([]);
    expect(icons, `icon controls under 3:1 (${scheme})`).toEqual([]);
    expect(words, 'one-word controls broken or cut off at phone width').toEqual([]);
  });
}

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
