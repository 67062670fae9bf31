import type { Response } from '@playwright/test';
import { BASE_PATH } from '@sagan/shared/routes';
import { test, expect, openPage } from './fixtures.ts';
import { keeperWithGame } from './seed.ts';

// A fan's public page comes without Cross-Origin-Opener-Policy, every other document with it
// (docs/decisions/0016-opener-isolation-by-page.md): the app goes on from such a page to
// another public one in the same document, and to any other page with a document of its own.

const opener = (res: Response | null) => res?.headers()['cross-origin-opener-policy'];

test('from a public page, a public link stays in the document; sign-in loads one with COOP', async ({
  page,
  request,
}) => {
  const { gameKey } = await keeperWithGame(request, { gameName: 'Isolation Cup' });
  const documents: Response[] = [];
  page.on('response', (res) => {
    if (res.request().isNavigationRequest()) documents.push(res);
  });
  await openPage(page, `/viewscoreboard/${gameKey}`);
  expect(documents).toHaveLength(1);
  expect(opener(documents[0]!)).toBeUndefined();
  // Marks this document: a new one would not carry the mark.
  await page.evaluate(() => ((window as unknown as { mark: number }).mark = 1));
  // While a document is being replaced there is none to ask.
  const mark = () =>
    page
      .evaluate(() => (window as unknown as { mark?: number }).mark)
      .catch(() => 'between documents');

  await page.getByRole('link', { name: 'Sagan home' }).click();
  await expect(page.getByRole('heading', { name: 'Current Games' })).toBeVisible();
  expect(new URL(page.url()).pathname).toMatch(new RegExp(`^${BASE_PATH}/?$`));
  expect(await mark()).toBe(1);

  await page.goBack();
  await expect(page.getByRole('link', { name: 'Sign in to bookmark' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in to bookmark' }).click();
  await expect.poll(mark).toBeUndefined();
  await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
  const last = documents.at(-1)!;
  expect(new URL(last.url()).pathname).toBe(`${BASE_PATH}/login`);
  expect(opener(last)).toBe('same-origin-allow-popups');
});
