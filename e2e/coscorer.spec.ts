import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { test, expect, unique, signIn, screenshot } from './fixtures.ts';
import { board, newGame, PHONE, saved, tap } from './scorekeeper-helpers.ts';

// Co-scorers (DESIGN §10): the owner invites by link, a second person signs in and accepts on
// their own phone, scores, and is told in plain words when the owner removes them.

/** What a QR code given as a PNG data: URL says. */
function decodeQr(dataUrl: string): string {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code found in the image');
  return code.data;
}

test.use({ viewport: PHONE, hasTouch: true });

test('the owner invites a co-scorer, who scores until removed', async ({ page, browser }) => {
  await signIn(page, unique('Owner'));
  const { gameKey } = await newGame(page, 'Basketball');
  await saved(page);
  const panel = page.locator('summary').filter({ hasText: 'Co-scorers' });
  await panel.click();
  await page.getByRole('button', { name: 'Invite a co-scorer' }).click();
  const link = await page.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(/\/invite#[A-Za-z0-9_-]{43}$/);
  // The QR code carries the whole link, the token in its fragment.
  const qr = page.getByRole('img', { name: 'QR code of the invitation link' });
  expect(decodeQr((await qr.getAttribute('src'))!)).toBe(link);
  await screenshot(page, 'coscorer-invite');

  const scorerName = unique('Scorer');
  const phone = await (await browser.newContext({ viewport: PHONE, hasTouch: true })).newPage();
  await phone.goto(link);
  await expect(phone.getByRole('link', { name: 'Sign in to accept' })).toBeVisible();
  await screenshot(phone, 'coscorer-redeem-signed-out');
  await signIn(phone, scorerName);
  await phone.reload();
  const accept = phone.getByRole('button', { name: 'Accept and start scoring' });
  await expect(accept).toBeVisible();
  await screenshot(phone, 'coscorer-redeem');
  await accept.click();
  await expect(phone).toHaveURL(new RegExp(`/scoregame/${gameKey}$`));
  await expect(phone.getByText('You score this game with')).toBeVisible();
  await saved(phone);
  await tap(phone, 'Lions +2');
  await saved(phone);
  await expect(board(page).getByLabel('Lions score 2')).toBeVisible();

  // The owner's open panel shows who joined, without a reload.
  const remove = page.getByRole('button', { name: `Remove ${scorerName}` });
  await expect(remove).toBeVisible();
  await remove.click();
  await expect(page.getByText('Nobody yet.')).toBeVisible();

  await expect(phone.getByRole('heading', { name: 'You no longer score this game' })).toBeVisible();
  await expect(phone.getByRole('alert')).toContainText('The owner removed you as a co-scorer');
  await screenshot(phone, 'coscorer-removed');
});
