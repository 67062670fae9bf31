import type { Browser, Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe.ts';
import { test, expect, unique, signIn, screenshot, BASE } from './fixtures.ts';
import {
  board,
  fact,
  linkSheet,
  newGame,
  PHONE,
  saved,
  tap,
  viewerOf,
} from './scorekeeper-helpers.ts';

// The scorekeeper in the browser (DESIGN §9), on a phone: a game of each board is created on
// the New game screen and every control of that board is driven, while a viewer in another
// browser context watches the public scoreboard change live.

test.use({ viewport: PHONE, hasTouch: true });

/** A tennis match started with these rules, its first game at deuce (40–40), and a viewer. */
async function tennisAtDeuce(page: Page, browser: Browser, rules: (p: Page) => Promise<void>) {
  const { gameKey } = await newGame(page, 'Tennis', rules);
  const viewer = await viewerOf(browser, gameKey);
  await tap(page, 'Next period ›');
  await tap(page, 'Lions point', 'Lions point', 'Lions point');
  await tap(page, 'Tigers point', 'Tigers point', 'Tigers point');
  return { gameKey, viewer };
}

test.describe('scorekeeper: every board from the browser', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, unique('Keeper'));
  });

  test('basketball: points, fouls, periods, clock, undo, direct edit and history', async ({
    page,
    browser,
  }) => {
    // The longest walk: every control, the clock, the panels and axe.
    test.setTimeout(120_000);
    const { gameKey } = await newGame(page, 'Basketball');
    const viewer = await viewerOf(browser, gameKey, { movableClock: true });
    await tap(page, 'Lions +1', 'Lions +2', 'Lions +3', 'Lions −1', 'Tigers +3');
    await tap(page, 'Lions Foul +1', 'Lions Foul +1', 'Lions Foul −1', 'Tigers Foul +1');
    await expect(board(viewer).getByLabel('Lions score 5')).toBeVisible();
    await expect(board(viewer).getByLabel('Tigers score 3')).toBeVisible();
    await expect(board(viewer).getByRole('row', { name: 'Fouls 1 1' })).toBeVisible();

    await tap(page, 'Next period ›');
    await expect(board(viewer).getByLabel('Period Q1')).toBeVisible();
    await tap(page, 'Next period ›', '‹ Period');
    await saved(page);
    await expect(board(viewer).getByLabel('Period Q1')).toBeVisible();
    await tap(page, 'Final');
    await expect(board(viewer).getByLabel('Period Final')).toBeVisible();
    // Undo takes back the last taps, one at a time.
    await tap(page, 'Undo');
    await expect(board(viewer).getByLabel('Period Q1')).toBeVisible();
    await tap(page, 'Starting Soon');
    await expect(board(viewer).getByLabel('Period Starting Soon')).toBeVisible();

    // The clock: m:ss up to 99:59, anything else refused in plain words before it is sent.
    await page.getByLabel('Set the clock').fill('99:99');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(page.getByText('The seconds go up to 59.')).toBeVisible();
    await page.getByLabel('Set the clock').fill('100:00');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(page.getByText('The clock goes up to 99:59.')).toBeVisible();
    // Set counting down, start, stop; viewers compute the running clock themselves.
    await page.getByLabel('Set the clock').fill('12:00');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(board(viewer).getByLabel('Clock 12:00')).toBeVisible();
    await tap(page, 'Start clock');
    await expect(board(viewer).getByLabel(/Clock 11:5\d/)).toBeVisible();
    await tap(page, 'Stop clock');
    await expect(page.getByRole('button', { name: 'Start clock' })).toBeVisible();
    // The viewer has the stopped clock once its seconds are no longer the 12:00 it started
    // from; two seconds later on its clock, it still shows the same time.
    const viewerClock = board(viewer).locator('.board-clock');
    await expect(viewerClock).not.toHaveAttribute('data-seconds', '720');
    const stopped = await viewerClock.textContent();
    await viewer.clock.fastForward(2000);
    await expect(viewerClock).toHaveText(stopped!);

    // Corrections: a field typed in directly, and the game's history. Each panel says whether
    // it is open, to the eye (a chevron) and to a screen reader (aria-expanded).
    const edit = page.locator('summary', { hasText: 'Edit the scoreboard' });
    await expect(edit).toHaveAttribute('aria-expanded', 'false');
    await expect(edit.locator('.sk-chevron')).toBeVisible();
    const closed = await edit.locator('.sk-chevron').evaluate((e) => getComputedStyle(e).transform);
    await edit.click();
    await expect(edit).toHaveAttribute('aria-expanded', 'true');
    await expect
      .poll(() => edit.locator('.sk-chevron').evaluate((e) => getComputedStyle(e).transform))
      .not.toBe(closed);
    await page.getByLabel('Home score', { exact: true }).fill('40');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(board(viewer).getByLabel('Lions score 40')).toBeVisible();
    const changes = page.locator('summary', { hasText: 'Changes' });
    await changes.click();
    await expect(changes).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('list', { name: 'Changes' })).toContainText('Home score 5 → 40');
    await expect(page.getByRole('list', { name: 'Changes' })).toContainText('Home fouls 0 → 1');
    await expectNoSeriousViolations(page, 'scorekeeper (basketball, panels open)');
    await screenshot(page, 'scorekeeper-basketball');
  });

  test('basic (soccer): the score both ways, never below 0, and who scored', async ({
    page,
    browser,
  }) => {
    const { gameKey } = await newGame(page, 'Soccer');
    const viewer = await viewerOf(browser, gameKey);
    await tap(page, 'Lions +1', 'Lions +1', 'Lions −1', 'Tigers −1', 'Tigers +1');
    await expect(board(viewer).getByLabel('Lions score 1')).toBeVisible();
    await expect(board(viewer).getByLabel('Tigers score 1')).toBeVisible();
    await tap(page, 'Next period ›', 'Next period ›', 'Next period ›');
    await expect(board(viewer).getByLabel('Period 2nd Half')).toBeVisible();
    await screenshot(page, 'scorekeeper-basic');

    // Who scored: the Lions linked to a team sheet of the keeper's, a goal, one tap on Ann.
    await linkSheet(page, 'Lions', { jersey: '4', playerName: 'Ann Lee' }, { published: true });
    await tap(page, 'Lions +1', 'Ann Lee, #4, scored');
    await expect(page.getByRole('group', { name: 'Who scored for Lions?' })).toHaveCount(0);
    await saved(page);
    const scorers = viewer.getByRole('table', { name: 'Lions' });
    await expect(scorers.getByRole('row', { name: '4 Ann Lee 1' })).toBeVisible();
    await expect(board(viewer).getByLabel('Lions score 2')).toBeVisible();
    // The Changes list says the taps in words, the scorer's name with the goal.
    await page.locator('summary', { hasText: 'Changes' }).click();
    const changes = page.getByRole('list', { name: 'Changes' });
    await expect(changes).toContainText('Lions +1 (Ann Lee)');
    await expect(changes).toContainText('2nd Half began');
  });

  test('aussie rules: goals and behinds make the total', async ({ page, browser }) => {
    const { gameKey } = await newGame(page, 'Aussie Rules');
    const viewer = await viewerOf(browser, gameKey);
    await tap(page, 'Lions goal', 'Lions goal', 'Lions behind', 'Lions goal −1');
    await tap(page, 'Tigers behind', 'Tigers behind', 'Tigers behind −1');
    await expect(board(viewer).getByLabel('Lions total 7')).toBeVisible();
    await expect(board(viewer).getByLabel('Tigers total 1')).toBeVisible();
    await expect(board(viewer).getByRole('row', { name: 'Goals 1 0' })).toBeVisible();
    await expect(board(viewer).getByRole('row', { name: 'Behinds 1 1' })).toBeVisible();
    await screenshot(page, 'scorekeeper-aussie');
  });

  test('football: scores, possession, down, to go and ball on', async ({ page, browser }) => {
    const { gameKey } = await newGame(page, 'Football');
    const viewer = await viewerOf(browser, gameKey);
    await tap(page, 'Lions +6', 'Lions +1', 'Tigers +3', 'Tigers +2', 'Tigers −1');
    await tap(page, 'Ball: switch to Lions', '1st and 10', 'Down +1', 'To go −1', 'To go −1');
    await tap(page, 'Ball on +1', 'Ball on +1', 'Ball on +1', 'Ball on −1', 'Down −1', 'Down +1');
    await expect(board(viewer).getByLabel('Lions score 7')).toBeVisible();
    await expect(board(viewer).getByLabel('Tigers score 4')).toBeVisible();
    await expect(fact(viewer, 'Down')).toHaveText('2nd');
    await expect(fact(viewer, 'To Go')).toHaveText('8');
    await expect(fact(viewer, 'Ball On')).toHaveText('2');
    await expect(
      board(viewer).locator('.board-team').filter({ hasText: 'Lions' }).getByLabel('Has the ball'),
    ).toBeVisible();
    await screenshot(page, 'scorekeeper-football');
  });

  test('volleyball: points and sets', async ({ page, browser }) => {
    const { gameKey } = await newGame(page, 'Volleyball');
    const viewer = await viewerOf(browser, gameKey);
    await tap(page, 'Next period ›', 'Lions +1', 'Lions +1', 'Tigers +1', 'Lions won the set');
    await expect(board(viewer).getByRole('row', { name: 'Sets 1 0' })).toBeVisible();
    await expect(board(viewer).getByLabel('Lions points 0')).toBeVisible();
    await expect(board(viewer).getByLabel('Period Set 2')).toBeVisible();
    await tap(page, 'Tigers won the set', 'Tigers +1', 'Lions +1', 'Lions −1');
    await expect(board(page).getByLabel('Period Set 3')).toBeVisible();
    // The set given by mistake taken back: the match is in the set the tally says, on both.
    await tap(page, 'Tigers sets −1');
    await expect(board(page).getByLabel('Period Set 2')).toBeVisible();
    await expect(board(viewer).getByRole('row', { name: 'Sets 1 0' })).toBeVisible();
    await expect(board(viewer).getByLabel('Period Set 2')).toBeVisible();
    await expect(board(viewer).getByLabel('Tigers points 1')).toBeVisible();
    // The correction form says what each number counts.
    await page.getByText('Edit the scoreboard').click();
    await expect(page.getByLabel('Home sets won')).toHaveValue('1');
    await expect(page.getByLabel('Away points in this set')).toHaveValue('1');
    await expect(page.getByText('Home score games')).toHaveCount(0);
    // At 25 with a lead of 2 the rules say the set is won; the scorer confirms it.
    await page.getByLabel('Home points in this set').fill('25');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await screenshot(page, 'scorekeeper-volleyball');
    await tap(page, 'Confirm: Lions won the set');
    await expect(page.getByRole('button', { name: 'Confirm: Lions won the set' })).toHaveCount(0);
    // Every set's score stays in the viewer's line score, the one being played live.
    const line = viewer.getByRole('region', { name: 'Line score' });
    // The first set, the 25 just confirmed, and the set now live at 0: the set Tigers were
    // given by mistake and lost again with Sets − is not among them.
    await expect(line.getByRole('row', { name: 'Lions 2 25 0' })).toBeVisible();
    await expect(line.getByRole('row', { name: 'Tigers 1 1 0' })).toBeVisible();
    await expect(board(viewer).getByRole('row', { name: 'Sets 2 0' })).toBeVisible();
    await expect(board(viewer).getByLabel('Period Set 3')).toBeVisible();
    await screenshot(viewer, 'board-volleyball-line-score');
  });

  test('baseball: the count, runners, outs and the half inning', async ({ page, browser }) => {
    const { gameKey } = await newGame(page, 'Baseball');
    const viewer = await viewerOf(browser, gameKey);
    await tap(page, 'Next period ›');
    await tap(page, 'Tigers run', 'Tigers run', 'Tigers run −1', 'Lions run');
    await tap(page, 'ball', 'ball', 'strike', 'balls −1', 'strike', 'strikes −1');
    await tap(page, 'runner on 1st', 'runner on 3rd', 'runner on 3rd', 'runner on 2nd');
    await expect(board(viewer).getByLabel('Tigers runs 1')).toBeVisible();
    await expect(board(viewer).getByLabel('Lions runs 1')).toBeVisible();
    await expect(fact(viewer, 'Balls')).toHaveText('1');
    await expect(fact(viewer, 'Strikes')).toHaveText('1');
    // A hit starts the next batter's count and shows in the viewer's line score (R H E).
    await tap(page, 'hit');
    await expect(fact(viewer, 'Balls')).toHaveText('0');
    await expect(fact(viewer, 'Strikes')).toHaveText('0');
    await expect(
      viewer
        .getByRole('region', { name: 'Line score' })
        .getByRole('row', { name: /^Tigers 1 .* 1 1 0$/ }),
    ).toBeVisible();
    await expect(board(viewer).getByLabel('First base occupied')).toBeVisible();
    await expect(board(viewer).getByLabel('Second base occupied')).toBeVisible();
    await expect(board(viewer).getByLabel('Third base empty')).toBeVisible();
    await tap(page, 'out', 'out', 'outs −1');
    await expect(fact(viewer, 'Outs')).toHaveText('1');
    // Two more outs end the half inning: the count and bases clear, the home team bats.
    await tap(page, 'out', 'out');
    await expect(fact(viewer, 'Outs')).toHaveText('0');
    await expect(board(viewer).getByLabel('First base empty')).toBeVisible();
    await expect(board(viewer).getByLabel('Period Bottom 1st')).toBeVisible();
    await tap(page, 'Batting: switch to Tigers');
    await expect(
      board(viewer).locator('.board-team').filter({ hasText: 'Tigers' }).getByLabel('Batting'),
    ).toBeVisible();
    await screenshot(page, 'scorekeeper-baseball');
  });

  test('tennis: points through deuce to games, sets and serve', async ({ page, browser }) => {
    const { viewer } = await tennisAtDeuce(page, browser, async (p) => {
      await p.getByLabel('Match length').selectOption({ label: 'Best of 3 sets' });
    });
    await tap(page, 'Tigers point');
    await expect(board(viewer).getByRole('row', { name: 'Points 40 AD' })).toBeVisible();
    await tap(page, 'Lions point', 'Lions point', 'Lions point');
    await expect(board(viewer).getByRole('row', { name: 'Games 1 0' })).toBeVisible();
    // Only the set in play: no unplayed 'Set 2 0 0' or 'Set 3 0 0'.
    await expect(board(viewer).getByRole('row', { name: 'Lions 1', exact: true })).toBeVisible();
    await expect(board(viewer).getByLabel('Period Set 1 / 3 sets')).toBeVisible();
    await tap(page, 'Serve: switch to Tigers');
    await expect(
      board(viewer).locator('.board-team').filter({ hasText: 'Tigers' }).getByLabel('Serving'),
    ).toBeVisible();
    await screenshot(page, 'scorekeeper-tennis');
  });

  test('tennis rules: no-ad, and a tiebreak at 6–6 counted 1, 2, 3… shown 7–6 (5)', async ({
    page,
    browser,
  }) => {
    const { gameKey, viewer } = await tennisAtDeuce(page, browser, async (p) => {
      await p.getByLabel('No-ad scoring').check();
      await p.getByLabel('Deciding set').selectOption({ label: 'Tiebreak at 12–12' });
    });
    await tap(page, 'Tigers point');
    // No-ad: the point at deuce won the game.
    await expect(board(viewer).getByRole('row', { name: 'Games 0 1' })).toBeVisible();
    // To 6–6 by the edit form, then the tiebreak.
    await page.locator('summary', { hasText: 'Edit the scoreboard' }).click();
    for (const label of [
      'Home games in this set',
      'Away games in this set',
      'Home set 1',
      'Away set 1',
    ])
      await page.getByLabel(label, { exact: true }).fill('6');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(board(viewer).getByRole('row', { name: 'Games 6 6' })).toBeVisible();
    // The mini card (and the overlay, the same card) reads it like the board, compactly.
    const mini = await viewer.context().newPage();
    await mini.goto(`${BASE}/viewscoreboardmini/${gameKey}`);
    const card = mini.locator('.summary-card');
    for (let i = 0; i < 5; i++) await tap(page, 'Lions point', 'Tigers point');
    await expect(board(viewer).getByRole('row', { name: 'Tiebreak 5 5' })).toBeVisible();
    await expect(card).toContainText('Sets 6; tiebreak 5');
    await screenshot(mini, 'mini-tennis-tiebreak');
    await tap(page, 'Lions point', 'Lions point');
    await expect(board(viewer).getByRole('row', { name: 'Tigers 6 (5) 0' })).toBeVisible();
    await expect(card).toContainText('Sets 6 (5), 0; points 0');
    await expect(card).toContainText('Sets 7, 0; points 0');
    await screenshot(mini, 'mini-tennis-after-tiebreak');
    await expect(board(viewer).getByRole('row', { name: 'Lions 7 0' })).toBeVisible();
    await expect(board(viewer).getByLabel('Period Set 2 / 3 sets')).toBeVisible();
    await page.locator('summary', { hasText: 'Rules' }).click();
    await expect(page.getByText('No-ad scoring; deciding set: tiebreak at 12–12.')).toBeVisible();
    await screenshot(viewer, 'board-tennis-tiebreak');
  });

  test('lacrosse: goals, shots, saves and man-up', async ({ page, browser }) => {
    const { gameKey } = await newGame(page, 'Lacrosse');
    const viewer = await viewerOf(browser, gameKey);
    await tap(page, 'Lions +1', 'Tigers +1', 'Tigers −1', 'Lions Shot +1', 'Lions Shot +1');
    await tap(page, 'Lions Shot −1', 'Tigers Save +1', 'Tigers Save +1', 'Tigers Save −1');
    await tap(page, 'Lions man-up', 'Tigers man-up', 'Tigers man-up');
    await expect(board(viewer).getByLabel('Lions score 1')).toBeVisible();
    await expect(board(viewer).getByLabel('Tigers score 0')).toBeVisible();
    await expect(board(viewer).getByRole('row', { name: 'Shots 1 0' })).toBeVisible();
    await expect(board(viewer).getByRole('row', { name: 'Saves 0 1' })).toBeVisible();
    await expect(board(viewer).locator('.board-flag')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Lions man-up' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await screenshot(page, 'scorekeeper-lacrosse');
  });
});
