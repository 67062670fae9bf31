import { test, expect, BASE, openPage } from './fixtures.ts';

// Under Preact a navigation shows Loading until the next page's code arrives
// (docs/decisions/0012); the app starts that download when a pointer reaches a link.
test('pointing at a link starts loading its page before the click', async ({ page }) => {
  await openPage(page, '/');
  await expect(page.getByText('Current Games')).toBeVisible();
  const pageCode = page.waitForRequest(/\/assets\/scoreboards-page-[^/]+\.js$/, {
    timeout: 5000,
  });
  const link = page.getByRole('navigation').getByRole('link', { name: 'Scoreboards' });
  await link.hover();
  await pageCode; // requested on hover, before any click
  await link.click();
  await expect(page).toHaveURL(`${BASE}/scoreboards`);
  await expect(page.getByRole('heading', { name: 'Scoreboards', level: 1 })).toBeVisible();
});
