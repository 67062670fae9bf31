import { test, expect, screenshot } from './fixtures.ts';
import { board, linkSheet, newGame, PHONE, saved, tap, viewerOf } from './scorekeeper-helpers.ts';

// Baseball's box score from the scorekeeper on a phone: after a Hit the scorer taps the batter
// (one tap, skippable), after a run its scorer; a viewer's board lists the batters' R and H.

test.use({ viewport: PHONE, hasTouch: true });

test('a hit and a run named to a batter show in the viewer’s Batters table', async ({
  signedInPage: page,
  browser,
}) => {
  const { gameKey } = await newGame(page, 'Baseball');
  const viewer = await viewerOf(browser, gameKey);
  // The Tigers, away, bat first: their sheet has Sam Park (#9).
  await linkSheet(page, 'Tigers', { jersey: '9', playerName: 'Sam Park' }, { published: true });

  await tap(page, 'Next period ›', 'hit');
  await expect(page.getByRole('group', { name: 'Who got the hit for Tigers?' })).toBeVisible();
  await tap(page, 'Sam Park, #9, got the hit');
  await tap(page, 'Tigers run', 'Sam Park, #9, scored');
  await saved(page);
  const batters = viewer.getByRole('table', { name: 'Tigers' });
  await expect(batters.getByRole('row', { name: '9 Sam Park 1 1' })).toBeVisible();
  await expect(board(viewer).getByLabel('Tigers runs 1')).toBeVisible();
  await screenshot(viewer, 'box-score-baseball-390');
  await viewer.setViewportSize({ width: 1280, height: 900 });
  await expect(batters.getByRole('row', { name: '9 Sam Park 1 1' })).toBeVisible();
  await screenshot(viewer, 'box-score-baseball-1280');
});
