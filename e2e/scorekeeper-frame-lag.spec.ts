import { test, expect, unique, signIn } from './fixtures.ts';
import { fact, newGame, PHONE, saved, tap, viewerOf } from './scorekeeper-helpers.ts';

// A write's answer reaches the scorer before the live topic's frame of that write does (the
// frame follows the commit's notification, a moment later; on a busy server, longer). Here the
// scorer's frames are held back while it taps, so that moment lasts as long as the test needs:
// a tap made in it must build on the change just answered, not on the state before it.

test.use({ viewport: PHONE, hasTouch: true });

test('a tap made after an answer but before its frame counts from the answered state', async ({
  page,
  browser,
}) => {
  let holding = false;
  const held: Array<() => void> = [];
  // Installed before the app opens its socket: every frame to the scorer passes through here.
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      const deliver = () => ws.send(message);
      if (holding) held.push(deliver);
      else deliver();
    });
  });
  await signIn(page, unique('Keeper'));
  const { gameKey } = await newGame(page, 'Football');
  const viewer = await viewerOf(browser, gameKey);
  await expect(fact(viewer, 'To Go')).toHaveText('0');

  holding = true;
  await tap(page, '1st and 10');
  // The server took it (the viewer shows it) and the scorer has its answer (nothing waits),
  // but not its frame.
  await expect(fact(viewer, 'To Go')).toHaveText('10');
  await saved(page);
  await tap(page, 'To go −1');
  await expect(fact(viewer, 'To Go')).toHaveText('9');
  await saved(page);
  // Still without either frame, the scorer's board shows both answered changes.
  await expect(fact(page, 'To Go')).toHaveText('9');

  holding = false;
  for (const deliver of held.splice(0)) deliver();
  await expect(fact(page, 'To Go')).toHaveText('9');
  await expect(fact(page, 'Down')).toHaveText('1st');
  await expect(fact(viewer, 'Down')).toHaveText('1st');
});
