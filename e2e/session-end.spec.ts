import { test, expect, unique, BASE, signIn, screenshot } from './fixtures.ts';

test.describe('a session ended elsewhere', () => {
  test('a second tab learns of a sign-out in the first, without a reload', async ({
    page,
    context,
  }) => {
    const name = unique('Tab');
    await signIn(page, name);
    const other = await context.newPage();
    // A private page, live over the socket (the user's play counts).
    await other.goto(`${BASE}/playcounts`);
    await expect(other.getByRole('button', { name })).toBeVisible();
    await expect(other.getByRole('heading', { level: 1 })).toBeVisible();

    await page.goto(`${BASE}/`);
    const started = Date.now();
    await page.getByRole('button', { name }).click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();

    // The other tab's socket is told by the server; the page asks who is signed in and follows.
    await expect(other.getByRole('link', { name: 'Login' })).toBeVisible({ timeout: 5000 });
    await expect(other).toHaveURL(/\/apps\/sagan\/login\?next=%2Fplaycounts/);
    console.log(`second tab shows Login ${Date.now() - started} ms after the click`);
    await screenshot(other, 'session-ended-elsewhere');
  });
});
