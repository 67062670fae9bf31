import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, unique, BASE, apiAs, createGame, signIn } from './fixtures.ts';
import { seedEveryScreen } from './every-screen.ts';

// Every screen of SPEC §2 passes axe-core with no serious or critical violation, in
// the light and the dark theme (and the scoreboard in bright-sun mode too).

async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(report, `${label}\n${report.join('\n')}`).toEqual([]);
}

test('every screen passes axe in light and dark mode', async ({
  page,
  request,
  allowConsoleError,
}) => {
  // About 90 s alone (17 screens × 2 schemes through axe); twice that beside the other worker.
  test.setTimeout(420_000);
  allowConsoleError(
    /\/no-such-page: Failed to load resource: .*\b404\b/,
    'the server answers an unknown path with a 404 status (true for crawlers too), which Chromium logs',
  );
  const name = unique('A11y coach');
  const me = await apiAs(request, name);
  await signIn(page, name);

  const { gameKey, screens } = await seedEveryScreen(me);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path, ready] of screens) {
      await page.goto(`${BASE}${path}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await expect(page.getByText(ready).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSeriousViolations(page, `${path} (${scheme})`);
    }
  }
  // The outdoor board.
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  await page.getByRole('button', { name: 'Bright sun' }).click();
  await expect(page.locator('.sun-mode')).toBeVisible();
  await expectNoSeriousViolations(page, 'scoreboard (bright sun)');
});

test('the top menu, the theme toggle and the scoreboard work by keyboard', async ({
  page,
  request,
}) => {
  const keeper = await apiAs(request, unique('Keyboard keeper'));
  const gameKey = await createGame(keeper, { gameName: 'Keyboard cup' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${BASE}/`);
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
