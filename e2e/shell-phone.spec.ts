import type { Page } from '@playwright/test';
import { test, expect, unique, BASE, apiAs, createGame, signIn, screenshot } from './fixtures.ts';

// Long input must never make a screen scroll sideways, and the shell must stay usable on a
// phone: 320 px (the narrowest phones in use) and 390 px (a common one).

/** An unbroken comment, as people paste links. */
const LONG_URL = `https://example.org/${'results-and-photos-'.repeat(12)}final`;
/** 38 characters with no space, as a tag. */
const LONG_TAG = 'RiversideJuniorsUnder11sSpringLeague25';
/** 60 characters, the longest display name allowed. */
const LONG_NAME = 'Maximiliana Wolfeschlegelsteinhausenbergerdorff-Oppenheimer';

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
    // For the failure message: the outermost elements reaching past the right edge.
    const past = [...document.querySelectorAll('body *')].filter(
      (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5,
    );
    const outermost = past.filter((el) => !past.includes(el.parentElement!));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      culprits: outermost
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
    };
  });
  expect
    .soft(scrollWidth, `${what} at ${innerWidth}px is ${scrollWidth}px wide: ${culprits.join(' ')}`)
    .toBeLessThanOrEqual(innerWidth);
}

test.describe('the shell on a phone', () => {
  test('long names, tags and comments never make a screen scroll sideways', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const owner = unique(LONG_NAME.slice(0, 53));
    const me = await apiAs(request, owner);
    const gameKey = await createGame(me, {
      gameName: `Championship${'Semifinal'.repeat(6)}`,
      sportID: 2,
      homeTeamName: `Riverside${'Juniors'.repeat(5)}`,
      awayTeamName: 'Tigers',
      gamePeriod: 'Quarter 3',
    });
    await me.call('POST', `/games/${gameKey}/comments`, { gameComment: LONG_URL });
    const tag = `${LONG_TAG.slice(0, 32)}${Math.random().toString(36).slice(2, 8)}`;
    const { tags } = (await me.call('PUT', `/games/${gameKey}/tags`, { tags: [tag] })) as {
      tags: { key: string }[];
    };
    const { teamKey } = (await me.call('POST', '/teams')) as { teamKey: string };
    await me.call('POST', `/teams/${teamKey}/players/bulk`, {
      text: `7 ${LONG_NAME}\n12 Grace Hopper`,
    });
    const { groupKey } = (await me.call('POST', `/teams/${teamKey}/groups`, {
      groupName: 'SecondHalfDefenceRotationGroup',
    })) as { groupKey: string };
    const sheet = (await me.call('GET', `/teams/${teamKey}`)) as {
      roster: { key: string; playerName: string }[];
    };
    for (const p of sheet.roster) {
      await me.call('PUT', `/teams/${teamKey}/groups/${groupKey}/members/${p.key}`, {
        location: 1,
      });
    }
    const { publishedAsKey } = (await me.call('POST', `/teams/${teamKey}/publish`)) as {
      publishedAsKey: string;
    };
    const pcKey = `phone${Math.random().toString(36).slice(2, 10)}`;
    await me.call('PUT', `/playcounts/${pcKey}`, {
      gameName: `Lions v ${'Bears'.repeat(8)}`,
      gameDate: '2025-05-04',
      roster: [
        { key: 'p1', jersey: '7', playerName: 'Ada Lovelace', playCount: 9, location: 1 },
        { key: 'p2', jersey: '12', playerName: LONG_NAME, playCount: 8, location: 2 },
      ],
      snaps: Array.from({ length: 9 }, (_, i) => ({
        snapCount: i + 1,
        groupName: i % 2 ? 'Defense' : 'Offense',
        quarter: 1 + (i % 4),
        p1: true,
        ...(i % 3 === 0 ? { p2: true } : {}),
      })),
    });
    await signIn(page, owner);

    const screens: [name: string, path: string, ready: RegExp | string][] = [
      ['home', '/', 'Current Games'],
      ['scoreboards', '/scoreboards', 'My Games'],
      ['scoreboard', `/viewscoreboard/${gameKey}`, 'Comments'],
      ['tagged', `/taggedscoreboards/${tags[0]!.key}`, `Scoreboards Tagged #${tag}`],
      ['teamsheets', '/teamsheets', 'My Teams'],
      ['teamsheet', `/teamsheets/${publishedAsKey}`, 'New Team'],
      ['teamsheet-edit', `/teamsheetedit/${teamKey}`, 'Roster'],
      ['playcounts', '/playcounts', 'My Play Counts'],
      ['playcount', `/playcount/${pcKey}`, 'Summary'],
      ['privacy', '/privacy', 'What we store'],
      ['login', '/login', 'You are signed in as'],
    ];
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [name, path, ready] of screens) {
        await page.goto(`${BASE}${path}`);
        await expect(page.getByText(ready).first()).toBeVisible();
        await expectNoSidewaysScroll(page, name);
        await screenshot(page, `phone-${width}-${name}`);
      }
    }
    // The header stays one row with the longest name: the name is cut short, not wrapped.
    // Measured once it is laid out.
    const header = page.locator('.top-menu');
    await expect.poll(async () => (await header.boundingBox())?.height).toBeLessThanOrEqual(72);
    await expect(page.getByRole('button', { name: owner })).toBeVisible();

    // A desktop does not grow sideways either (the comment once made the page 4,700 px wide).
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    await expect(page.getByText('Comments')).toBeVisible();
    await expectNoSidewaysScroll(page, 'scoreboard');
  });

  test('the top menu folds behind a Menu button that opens, closes on Escape and navigates', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE}/`);
    // The dashboard is server-rendered: its controls work once the app has taken over.
    await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = nav.getByRole('button', { name: 'Menu' });
    const scoreboards = nav.getByRole('link', { name: 'Scoreboards' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(scoreboards).toBeHidden();
    // One row: logo, theme, Login and the Menu button.
    // Measured once it is laid out.
    const header = page.locator('.top-menu');
    await expect.poll(async () => (await header.boundingBox())?.height).toBeLessThanOrEqual(72);

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(scoreboards).toBeVisible();
    await expect(nav.getByRole('link', { name: 'About' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(scoreboards).toBeHidden();
    await expect(menu).toBeFocused();

    // Keyboard: the links follow the button.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'Home', exact: true })).toBeFocused();
    await scoreboards.click();
    await expect(page).toHaveURL(`${BASE}/scoreboards`);
    await expect(scoreboards).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await screenshot(page, 'phone-390-menu-closed');
    await menu.click();
    await screenshot(page, 'phone-390-menu-open');

    // A desktop shows the links in the bar and no Menu button.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(menu).toBeHidden();
    await expect(scoreboards).toBeVisible();
  });
});
