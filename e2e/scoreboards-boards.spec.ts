import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { demoFields } from '../apps/server/src/demo/games.ts';
import { test, expect, BASE, screenshot } from './fixtures.ts';
import { keeperWithGame } from './seed.ts';

// SPEC §2 Boards by sport: one test per board, each with a screenshot to look at. Most boards
// show a demo game (apps/server/src/demo/games.ts) under a test's own name: the numbers the
// tests read are the demo's, where a line gives no other.

async function openBoard(
  page: Page,
  request: APIRequestContext,
  fields: Record<string, unknown>,
  clock?: { formattedTime: string; seconds: number },
) {
  const { keeper, gameKey } = await keeperWithGame(request, fields);
  if (clock) await keeper.call('POST', `/games/${gameKey}/clock`, clock);
  await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
  const board = page.getByRole('region', { name: 'Scoreboard' });
  await expect(board.getByRole('heading', { name: String(fields.gameName) })).toBeVisible();
  return board;
}

const fact = (board: ReturnType<Page['getByRole']>, label: string) =>
  board.locator('.board-fact').filter({ hasText: label });

test.describe('boards by sport', () => {
  test('Basic board (Soccer, id 3): name, period, clock, teams and scores', async ({
    page,
    request,
  }) => {
    const board = await openBoard(
      page,
      request,
      {
        gameName: 'Basic Board',
        sportID: 3,
        gamePeriod: '2nd Half',
        homeTeamName: 'Rovers',
        awayTeamName: 'United',
        homeScore: 2,
        awayScore: 1,
      },
      { formattedTime: '67:12', seconds: 4032 },
    );
    await expect(board).toHaveClass(/board-basic/);
    await expect(board.getByText('Soccer')).toBeVisible();
    await expect(board.getByLabel('Period 2nd Half')).toBeVisible();
    await expect(board.getByLabel('Clock 67:12')).toBeVisible();
    await expect(board.getByLabel('Rovers score 2')).toBeVisible();
    await expect(board.getByLabel('United score 1')).toBeVisible();
    await screenshot(page, 'board-basic');
  });

  test('Basketball board: Basic plus fouls per team', async ({ page, request }) => {
    const board = await openBoard(
      page,
      request,
      { ...demoFields('Varsity Hoops'), gameName: 'Basketball Board' },
      { formattedTime: '5:31', seconds: 331 },
    );
    await expect(board.getByLabel('Eagles score 48')).toBeVisible();
    await expect(board.getByLabel('Clock 5:31')).toBeVisible();
    await expect(board.getByRole('row', { name: 'Fouls 4 6' })).toBeVisible();
    await screenshot(page, 'board-basketball');
  });

  test('a Final game shows no clock, whatever it last showed', async ({ page, request }) => {
    const board = await openBoard(
      page,
      request,
      {
        gameName: 'Final Board',
        sportID: 2,
        gamePeriod: 'Final',
        homeTeamName: 'Eagles',
        awayTeamName: 'Hawks',
        homeScore: 81,
        awayScore: 77,
      },
      { formattedTime: '7:53', seconds: 473 },
    );
    await expect(board.getByLabel('Period Final')).toBeVisible();
    await expect(board.getByLabel('Eagles score 81')).toBeVisible();
    await expect(board.locator('.board-clock')).toHaveCount(0);
    await expect(board).not.toContainText('7:53');
  });

  test('Aussie Rules board: goals, behinds and total; Gaelic says points', async ({
    page,
    request,
  }) => {
    const board = await openBoard(page, request, {
      ...demoFields('Footy Derby'),
      gameName: 'Aussie Board',
    });
    await expect(board.getByRole('row', { name: 'Goals 5 4' })).toBeVisible();
    await expect(board.getByRole('row', { name: 'Behinds 4 7' })).toBeVisible();
    await expect(board.getByLabel('Swans total 34')).toBeVisible();
    await expect(board.getByLabel('Magpies total 31')).toBeVisible();
    await screenshot(page, 'board-aussie');
    const gaelic = await openBoard(page, request, {
      gameName: 'Gaelic Board',
      sportID: 13,
      homeTeamName: 'Kilkenny',
      awayTeamName: 'Cork',
      homeScoreGoals: 2,
      homeScorePoints: 14,
      homeScore: 20,
    });
    await expect(gaelic.getByRole('row', { name: 'Points 14 0' })).toBeVisible();
    await expect(gaelic.getByText('Gaelic', { exact: true })).toBeVisible();
  });

  test('Football board: Ball On, To Go, Down and possession', async ({ page, request }) => {
    const board = await openBoard(page, request, {
      ...demoFields('Homecoming'),
      gameName: 'Football Board',
    });
    await expect(fact(board, 'Ball On')).toContainText('35');
    await expect(fact(board, 'To Go')).toContainText('7');
    await expect(fact(board, 'Down')).toContainText('3rd');
    await expect(board.getByRole('img', { name: 'Has the ball' })).toHaveCount(1);
    await expect(board.getByLabel('Bears score 21')).toBeVisible();
    await screenshot(page, 'board-football');
  });

  test('Volleyball board: sets and points', async ({ page, request }) => {
    const board = await openBoard(page, request, {
      ...demoFields('Club Volleyball'),
      gameName: 'Volleyball Board',
      awayScoreGames: 2,
    });
    await expect(board.getByLabel('Spikers points 18')).toBeVisible();
    await expect(board.getByLabel('Diggers points 21')).toBeVisible();
    await expect(board.getByRole('row', { name: 'Sets 1 2' })).toBeVisible();
    await expect(board.locator('.board-clock')).toHaveCount(0);
    await screenshot(page, 'board-volleyball');
  });

  test('Baseball board: bases, balls, strikes, outs and who bats', async ({ page, request }) => {
    const board = await openBoard(page, request, {
      ...demoFields('Little League'),
      gameName: 'Baseball Board',
    });
    await expect(board.getByLabel('First base occupied')).toBeVisible();
    await expect(board.getByLabel('Second base empty')).toBeVisible();
    await expect(board.getByLabel('Third base occupied')).toBeVisible();
    await expect(fact(board, 'Balls')).toContainText('2');
    await expect(fact(board, 'Strikes')).toContainText('1');
    await expect(fact(board, 'Outs')).toContainText('1');
    await expect(board.getByLabel('Pirates runs 4')).toBeVisible();
    const batting = board.getByRole('img', { name: 'Batting' });
    await expect(batting).toHaveCount(1);
    await expect(
      board.locator('.board-team').nth(1).getByRole('img', { name: 'Batting' }),
    ).toBeVisible();
    await screenshot(page, 'board-baseball');
  });

  test("Tennis board: the sets played, games, points, 'period / maxSets sets' and the server", async ({
    page,
    request,
  }) => {
    const board = await openBoard(page, request, {
      ...demoFields('Club Championship'),
      gameName: 'Tennis Board',
      homeScorePointsTennis: 'AD',
      awayScorePointsTennis: '40',
    });
    await expect(board.getByText('Set 2 / 3 sets')).toBeVisible();
    // Only the sets played: no unplayed 'Set 3 0 0'.
    await expect(board.getByRole('columnheader', { name: 'Set 2' })).toBeVisible();
    await expect(board.getByRole('columnheader', { name: 'Set 3' })).toHaveCount(0);
    await expect(board.getByRole('row', { name: 'A. Rivera 6 3', exact: true })).toBeVisible();
    await expect(board.getByRole('row', { name: 'K. Osei 4 2', exact: true })).toBeVisible();
    await expect(board.getByRole('row', { name: 'Games 3 2' })).toBeVisible();
    await expect(board.getByRole('row', { name: 'Points AD 40' })).toBeVisible();
    await expect(
      board.locator('.board-team').first().getByRole('img', { name: 'Serving' }),
    ).toBeVisible();
    await screenshot(page, 'board-tennis');
  });

  test('Tennis board, before and after: the period alone, and only the sets played', async ({
    page,
    request,
  }) => {
    const final = await openBoard(page, request, {
      gameName: 'Tennis Final',
      sportID: 8,
      gamePeriod: 'Final',
      homeTeamName: 'A. Rivera',
      awayTeamName: 'K. Osei',
      maxSets: 3,
      homeSet1: 6,
      awaySet1: 4,
      homeSet2: 7,
      awaySet2: 5,
    });
    await expect(final.getByLabel('Period Final')).toHaveText('Final');
    await expect(final).not.toContainText('3 sets');
    await expect(final.getByRole('row', { name: 'A. Rivera 6 7', exact: true })).toBeVisible();
    await expect(final.getByRole('columnheader', { name: 'Set 3' })).toHaveCount(0);
    // Over: no game or point being played, nobody serving.
    await expect(final.getByRole('row', { name: /^(Games|Points)/ })).toHaveCount(0);
    await expect(final.getByRole('img', { name: 'Serving' })).toHaveCount(0);
    await screenshot(page, 'board-tennis-final');

    const soon = await openBoard(page, request, {
      gameName: 'Tennis Soon',
      sportID: 8,
      gamePeriod: 'Starting Soon',
      homeTeamName: 'A. Rivera',
      awayTeamName: 'K. Osei',
      maxSets: 3,
    });
    await expect(soon.getByLabel('Period Starting Soon')).toHaveText('Starting Soon');
    await expect(soon.getByRole('table', { name: 'Sets' })).toHaveCount(0);
  });

  test('Lacrosse board: man-up flags, shots and saves', async ({ page, request }) => {
    const board = await openBoard(
      page,
      request,
      { ...demoFields('Box Lacrosse Cup'), gameName: 'Lacrosse Board' },
      { formattedTime: '9:12', seconds: 552 },
    );
    await expect(board.getByRole('row', { name: 'Shots 18 15' })).toBeVisible();
    await expect(board.getByRole('row', { name: 'Saves 11 13' })).toBeVisible();
    await expect(board.getByText('Man Up')).toHaveCount(1);
    await expect(board.locator('.board-team').nth(1).getByText('Man Up')).toBeVisible();
    await expect(board.getByLabel('Clock 9:12')).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'board-lacrosse-phone');
  });

  test('line score: 12 innings with R H E, read at 320 px and on a desktop', async ({
    page,
    request,
  }) => {
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: 'Extra Innings',
      sportID: 7,
      gamePeriod: 'Top 1st',
      homeTeamName: 'Cardinals',
      awayTeamName: 'Rangers',
    });
    const tap = (action: unknown) =>
      keeper.call('POST', `/games/${gameKey}/events`, { action, device: 'e2e' });
    const out = { kind: 'pitch', call: 'out' };
    // Eleven full innings and the top of the 12th: the away team scores in the 1st and the
    // 12th, the home team in the 3rd; a hit each half inning, one error.
    for (let half = 0; half < 23; half++) {
      await tap({ kind: 'hit' });
      if (half === 0 || half === 22) await tap({ kind: 'score', team: 'away', by: 1 });
      if (half === 5) await tap({ kind: 'score', team: 'home', by: 2 });
      for (let o = 0; o < 3; o++) await tap(out);
    }
    await tap({ kind: 'error' });
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    const line = page.getByRole('region', { name: 'Line score' });
    await expect(
      line.getByRole('row', { name: /^Rangers 1 0 0 0 0 0 0 0 0 0 0 1 2 12 1$/ }),
    ).toBeVisible();
    await expect(
      line.getByRole('row', { name: /^Cardinals 0 0 2 0 0 0 0 0 0 0 0 0 2 11 0$/ }),
    ).toBeVisible();
    await screenshot(page, 'board-line-score-320');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'board-line-score-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'board-line-score-1280');
  });

  test('the clock keeps its slot: nothing beside it moves when 10:00 becomes 9:59', async ({
    page,
    request,
  }) => {
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: 'Clock Slot',
      sportID: 3,
      gamePeriod: '1st Half',
    });
    await keeper.call('POST', `/games/${gameKey}/clock`, { formattedTime: '10:00', seconds: 600 });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE}/viewscoreboard/${gameKey}`);
    const board = page.getByRole('region', { name: 'Scoreboard' });
    const clock = board.getByRole('timer');
    const period = board.getByLabel('Period 1st Half');
    await expect(clock).toHaveAccessibleName('Clock 10:00');
    // Across: the row is centred, so a narrower clock would move the period beside it. (Down
    // the page, what loads above the board may still move it; that is not the clock's doing.)
    const across = async (box: Locator) => {
      const b = await box.boundingBox();
      return b && { x: b.x, width: b.width };
    };
    // Once the app has taken the server-rendered page over: it renders the board anew.
    await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
    // Both read together, once both are on screen (a box is null while the app re-renders it).
    const both = async () => ({ clock: await across(clock), period: await across(period) });
    let before = await both();
    await expect
      .poll(async () => {
        before = await both();
        return before.clock !== null && before.period !== null;
      })
      .toBe(true);
    await keeper.call('POST', `/games/${gameKey}/clock`, { formattedTime: '9:59', seconds: 599 });
    await expect(clock).toHaveAccessibleName('Clock 9:59');
    await expect(clock).toHaveText('9:59');
    // A moved clock or period never comes back to where it was: this fails on the old stylesheet.
    await expect.poll(both).toEqual(before);
    await screenshot(page, 'board-clock-slot-390');
  });

  test('the mini card and the overlay show the clock; a Final game none', async ({
    page,
    request,
  }) => {
    const { keeper, gameKey } = await keeperWithGame(request, {
      gameName: 'Mini Clock',
      sportID: 2,
      gamePeriod: 'Q2',
    });
    await keeper.call('POST', `/games/${gameKey}/clock`, { formattedTime: '4:05', seconds: 245 });
    await page.setViewportSize({ width: 390, height: 300 });
    await page.goto(`${BASE}/viewscoreboardmini/${gameKey}`);
    await expect(page.getByRole('timer', { name: 'Clock 4:05' })).toBeVisible();
    await screenshot(page, 'mini-clock-390');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${BASE}/viewscoreboardmini/${gameKey}?overlay=1`);
    await expect(page.getByRole('timer', { name: 'Clock 4:05' })).toBeVisible();
    await keeper.call('PATCH', `/games/${gameKey}`, { gamePeriod: 'Final' });
    await expect(page.getByText('Final')).toBeVisible();
    await expect(page.getByRole('timer')).toHaveCount(0);
  });
});
