import { test, expect, BASE } from './fixtures.ts';
import { putPlayCount } from './seed.ts';

// Plain words, the SPEC's own where it has them, and counts in the right number.

test('one archived play count, a minimum of one play: said in the singular', async ({
  signedInPage: page,
  api,
}) => {
  const gameKey = await putPlayCount(api, {
    gameName: 'Only game',
    gameDate: '2025-09-13',
    roster: [{ key: 'p1', jersey: '7', playerName: 'Ann Lee', playCount: 1, location: 1 }],
    snaps: [{ snapCount: 1, groupName: 'Offense', quarter: 1, p1: true }],
  });

  await page.goto(`${BASE}/playcount/${gameKey}`);
  await page.getByLabel('Minimum plays per player').fill('1');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.pc-min-status')).toHaveText('Every player has at least 1 play.');

  await api.call('PATCH', `/playcounts/${gameKey}`, { archived: true });
  await page.goto(`${BASE}/playcounts`);
  await expect(page.getByText('Your one play count is archived.')).toBeVisible();
  await expect(page.getByText(/All 1 of/)).toHaveCount(0);
});

test('an unpublished sheet points at its Publish button in plain words', async ({
  signedInPage: page,
}) => {
  const res = await page.request.post(`${BASE}/api/teams`, {
    headers: { 'x-sagan-request': '1' },
  });
  const { teamKey } = (await res.json()) as { teamKey: string };
  await page.goto(`${BASE}/teamsheetedit/${teamKey}`);
  await expect(
    page.getByText('Publish this team sheet to get a shareable link and QR code here.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish' })).toBeVisible();
  await expect(page.getByText(/sharable|in the app/)).toHaveCount(0);
});
