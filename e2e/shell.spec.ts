import { test, expect, unique, BASE, screenshot } from './fixtures.ts';

test.describe('app shell and sign-in', () => {
  test('a visitor signs in locally, sees their name in the menu, and signs out', async ({
    page,
  }) => {
    const name = unique('Ann');
    await page.goto(`${BASE}/`);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.getByRole('link', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
    await expect(page.getByText('use in the companion mobile app')).toBeVisible();
    await page.getByLabel('Display name').fill(name);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/apps\/sagan\/?$/);
    const menuName = page.getByRole('button', { name });
    await expect(menuName).toBeVisible();
    await menuName.click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    // The session is dead on the server too, not just forgotten by the page.
    const me = await page.request.get(`${BASE}/api/auth/me`);
    expect(me.status()).toBe(401);
  });

  test('a protected route sends a signed-out visitor to Login and back after sign-in', async ({
    page,
  }) => {
    await page.goto(`${BASE}/playcounts`);
    await expect(page).toHaveURL(/\/apps\/sagan\/login\?next=%2Fplaycounts/);
    await page.getByLabel('Display name').fill(unique('Coach'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${BASE}/playcounts`);
  });

  test('an empty display name is refused with a clear message', async ({ page }) => {
    await page.goto(`${BASE}/login`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please enter a name')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  });

  test('the footer carries the contact list and the 2025 copyright', async ({ page }) => {
    await page.goto(`${BASE}/`);
    const footer = page.locator('footer');
    await expect(footer.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'help@sagan.example' })).toHaveAttribute(
      'href',
      'mailto:help@sagan.example',
    );
    for (const label of ['Blog', 'About', 'Privacy', 'Terms of Service']) {
      await expect(footer.getByRole('link', { name: label })).toBeVisible();
    }
    await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
    await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/termsOfService',
    );
    await expect(footer.getByText('© 2025')).toBeVisible();
    await expect(footer.getByText(/human|real person/)).toBeVisible();
  });

  test('an unknown path shows a friendly not-found page', async ({ page, allowConsoleError }) => {
    allowConsoleError(
      /\/no\/such\/page: Failed to load resource: .*\b404\b/,
      'the server answers an unknown path with a 404 status (true for crawlers too), which Chromium logs',
    );
    const res = await page.goto(`${BASE}/no/such/page`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  });

  test('screenshots: Login, and the shell on a phone and on a desktop', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE}/login`);
    await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
    await screenshot(page, 'login-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${BASE}/login`);
    await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
    await screenshot(page, 'login-desktop');
  });
});
