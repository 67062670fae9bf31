import { test, expect, unique, BASE, screenshot, signIn } from './fixtures.ts';

test.describe('app shell and sign-in', () => {
  test('a visitor signs in locally, sees their name in the menu, and signs out', async ({
    page,
  }) => {
    const name = unique('Ann');
    await page.goto(`${BASE}/`);
    // The dashboard is server-rendered: its controls work once the app has taken over.
    await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.getByRole('link', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
    await expect(page.getByText('use in the companion mobile app')).toBeVisible();
    await page.getByLabel('Display name').fill(name);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/apps\/sagan\/?$/);
    const menuName = page.getByRole('button', { name });
    await expect(menuName).toBeVisible();
    // One tap on your name opens the user menu; it signs nobody out by itself.
    await menuName.click();
    await expect(menuName).toHaveAttribute('aria-expanded', 'true');
    const signOut = page.getByRole('button', { name: 'Sign out', exact: true });
    await expect(signOut).toBeFocused();
    expect((await page.request.get(`${BASE}/api/auth/me`)).status()).toBe(200);
    // Escape closes it and gives the focus back to your name.
    await page.keyboard.press('Escape');
    await expect(signOut).toBeHidden();
    await expect(menuName).toBeFocused();
    await expect(menuName).toHaveAttribute('aria-expanded', 'false');
    await menuName.click();
    await signOut.click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('You are signed out.');
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

  test('the footer carries the contact list, the configured links only, and the 2025 copyright', async ({
    page,
  }) => {
    await page.goto(`${BASE}/`);
    // The dashboard is server-rendered: its controls work once the app has taken over.
    await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
    const footer = page.locator('footer');
    await expect(footer.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'help@sagan.example' })).toHaveAttribute(
      'href',
      'mailto:help@sagan.example',
    );
    // The e2e server sets BLOG_URL and ABOUT_URL (scripts/e2e-server.ts), not SOCIAL_URL.
    await expect(footer.getByRole('link', { name: 'Blog' })).toHaveAttribute(
      'href',
      'https://club.example/blog/',
    );
    await expect(footer.getByRole('link', { name: 'About' })).toHaveAttribute(
      'href',
      'https://club.example/about',
    );
    await expect(footer.getByRole('link', { name: 'Follow us' })).toHaveCount(0);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }),
    ).toHaveAttribute('href', 'https://club.example/about');
    await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute(
      'href',
      `${BASE}/privacy`,
    );
    await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      `${BASE}/termsOfService`,
    );
    await expect(footer.getByText('© 2025')).toBeVisible();
    await expect(footer.getByText(/human|real person/)).toBeVisible();
  });

  test('Privacy and Terms are pages of the app, naming the operator', async ({ page }) => {
    await page.goto(`${BASE}/`);
    // The dashboard is server-rendered: its controls work once the app has taken over.
    await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
    await page.locator('footer').getByRole('link', { name: 'Privacy' }).click();
    await expect(page).toHaveURL(`${BASE}/privacy`);
    await expect(page.getByRole('heading', { name: 'Privacy', level: 1 })).toBeVisible();
    await expect(page.getByText('Riverside Juniors Club').first()).toBeVisible();
    for (const h of ['What we store', "Children's data", 'Photos', 'Who sees what']) {
      await expect(page.getByRole('heading', { name: h, level: 2 })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'How to delete your data' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'help@sagan.example' }).first()).toBeVisible();
    await page.locator('footer').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page.getByRole('heading', { name: 'Terms of Service', level: 1 })).toBeVisible();
    await expect(page.getByText('Riverside Juniors Club').first()).toBeVisible();
    // Opened directly, as a shared link would be.
    const res = await page.goto(`${BASE}/termsOfService`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Terms of Service', level: 1 })).toBeVisible();
  });

  test('old links outside the base path land on the app, not on JSON', async ({
    page,
    allowConsoleError,
  }) => {
    allowConsoleError(
      /\/blog\/: Failed to load resource: .*\b404\b/,
      'an unknown path answers with a 404 status (for crawlers too), which Chromium logs',
    );
    await page.goto('/privacy');
    await expect(page).toHaveURL(`${BASE}/privacy`);
    await expect(page.getByRole('heading', { name: 'Privacy', level: 1 })).toBeVisible();
    const res = await page.goto('/blog/');
    expect(res?.status()).toBe(404);
    expect(res?.headers()['content-type']).toMatch(/text\/html/);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
  });

  test('Sign out everywhere ends the sessions of every device', async ({ page, browser }) => {
    const name = unique('Bea');
    await signIn(page, name);
    const other = await browser.newContext();
    const phone = await other.newPage();
    await signIn(phone, name); // the same local name is the same account
    await page.goto(`${BASE}/`);
    // The dashboard is server-rendered: its controls work once the app has taken over.
    await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
    await page.getByRole('button', { name }).click();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page.getByRole('status')).toHaveText(
      /signed out on every device \(2 sign-ins ended\)/,
    );
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    expect((await phone.request.get(`${BASE}/api/auth/me`)).status()).toBe(401);
    await other.close();
  });

  test('Login says so when you are already signed in, with a way out', async ({ page }) => {
    const name = unique('Cy');
    await signIn(page, name);
    await page.goto(`${BASE}/login`);
    await expect(page.getByText(`You are signed in as ${name}`)).toBeVisible();
    await expect(page.getByLabel('Display name')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
    await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByLabel('Display name')).toBeVisible();
    expect((await page.request.get(`${BASE}/api/auth/me`)).status()).toBe(401);
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
