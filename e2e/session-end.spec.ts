import { test, expect, BASE, screenshot, openPage } from './fixtures.ts';

test.describe('a session ended elsewhere', () => {
  test('a second tab learns of a sign-out in the first, without a reload', async ({
    signedInPage: page,
    person: name,
    context,
  }) => {
    const other = await context.newPage();
    let toldAt = 0;
    other.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"signed-out"')) toldAt ||= Date.now();
      }),
    );
    // A private page, live over the socket (the user's play counts).
    await other.goto(`${BASE}/playcounts`);
    await expect(other.getByRole('button', { name })).toBeVisible();
    await expect(other.getByRole('heading', { level: 1 })).toBeVisible();

    await openPage(page, '/');
    await expect(page.getByRole('button', { name })).toBeVisible();
    // The tab that signs out knows it is signed out: it need not ask the server again.
    let asked = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/auth/me')) asked++;
    });
    const started = Date.now();
    await page.getByRole('button', { name }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    const signedOutAt = Date.now();

    // The other tab's socket is told by the server; the page asks who is signed in and follows.
    await expect(other.getByRole('link', { name: 'Login' })).toBeVisible({ timeout: 5000 });
    await expect(other).toHaveURL(/\/apps\/sagan\/login\?next=%2Fplaycounts/);
    console.log(
      `click → first tab signed out ${signedOutAt - started} ms, → second tab's socket told ` +
        `${toldAt - started} ms, → second tab shows Login ${Date.now() - started} ms`,
    );
    expect(toldAt).toBeGreaterThan(0);
    expect(asked).toBe(0);
    await screenshot(other, 'session-ended-elsewhere');
  });
});
