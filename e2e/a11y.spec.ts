import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, unique, BASE, apiAs, signIn } from './fixtures.ts';

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

  // Seed one of everything through the API, as the phone apps would.
  const { gameKey } = (await me.call('POST', '/games', {
    gameName: 'Cup final',
    sportID: 7,
    homeTeamName: 'Lions',
    awayTeamName: 'Tigers',
    gamePeriod: 'Final',
  })) as { gameKey: string };
  await me.call('PATCH', `/games/${gameKey}`, { homeScore: 3, awayScore: 1, base1: true, outs: 2 });
  await me.call('POST', `/games/${gameKey}/comments`, { gameComment: 'What a catch!' });
  const tag = unique('a11y').replace(' ', '');
  const { tags } = (await me.call('PUT', `/games/${gameKey}/tags`, { tags: [tag] })) as {
    tags: { key: string }[];
  };
  await me.call('PUT', `/me/favorite-scoreboards/${gameKey}`);
  const { teamKey } = (await me.call('POST', '/teams')) as { teamKey: string };
  await me.call('POST', `/teams/${teamKey}/players/bulk`, {
    text: '7 Ada Lovelace\n12 Grace Hopper',
  });
  const { groupKey } = (await me.call('POST', `/teams/${teamKey}/groups`, {
    groupName: 'First half',
  })) as { groupKey: string };
  const sheet = (await me.call('GET', `/teams/${teamKey}`)) as {
    roster: { key: string; playerName: string }[];
  };
  // Keys are random, so the roster's order is not the upload's: pick Ada by name.
  const playerKey = sheet.roster.find((p) => p.playerName === 'Ada Lovelace')!.key;
  await me.call('PUT', `/teams/${teamKey}/groups/${groupKey}/members/${playerKey}`, {
    location: 1,
  });
  const { publishedAsKey } = (await me.call('POST', `/teams/${teamKey}/publish`)) as {
    publishedAsKey: string;
  };
  const pcKey = `a11y${Math.random().toString(36).slice(2, 10)}`;
  await me.call('PUT', `/playcounts/${pcKey}`, {
    gameName: 'Lions v Bears',
    gameDate: '2025-05-04',
    roster: [
      { key: 'p1', jersey: '7', playerName: 'Ada Lovelace', playCount: 2, location: 1 },
      { key: 'p2', jersey: '12', playerName: 'Grace Hopper', playCount: 1, location: 2 },
    ],
    snaps: [{ snapCount: 1, groupName: 'O', quarter: 1, p1: true }],
  });

  // [route, a text that shows the screen has loaded]
  const screens: [string, string | RegExp][] = [
    ['/', 'Current Games'],
    ['/login', 'Login'],
    ['/scoreboards', 'My Games'],
    [`/taggedscoreboards/${tags[0]!.key}`, `Scoreboards Tagged #${tag}`],
    [`/viewscoreboard/${gameKey}`, 'Comments'],
    [`/viewscoreboardmini/${gameKey}`, 'Cup final'],
    ['/teamsheets', 'My Teams'],
    [`/teamsheets/${publishedAsKey}`, 'New Team'],
    [`/teamsheets/${publishedAsKey}/${playerKey}`, /Ada Lovelace/],
    [`/teamsheetedit/${teamKey}`, 'Roster'],
    [`/teamsheetgroupedit/${teamKey}/${groupKey}`, 'First half'],
    [`/teamsheetgroupedit/${teamKey}`, /Group/],
    [`/teamsheetbulk/${teamKey}`, 'Bulk Upload'],
    [`/teamsheetedit/${teamKey}/${playerKey}`, 'Edit Player'],
    [`/teamsheetedit/${teamKey}/-1`, /Player/],
    ['/playcounts', 'Play Counts'],
    [`/playcount/${pcKey}`, 'Lions v Bears'],
    ['/no-such-page', /not found/i],
  ];
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
  const { gameKey } = (await keeper.call('POST', '/games', { gameName: 'Keyboard cup' })) as {
    gameKey: string;
  };
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
