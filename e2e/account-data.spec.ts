import fs from 'node:fs';
import { test, expect, unique, API, signIn, screenshot, openPage } from './fixtures.ts';

const send = { 'x-sagan-request': '1' };

test.describe("a person's data, from the user menu", () => {
  test('a parent downloads their data, then deletes their account and everything in it', async ({
    page,
  }) => {
    const name = unique('Parent');
    await signIn(page, name);
    const gameRes = await page.request.post(`${API}/games`, {
      headers: send,
      data: { gameName: unique('Under 10s final'), homeTeamName: 'Owls' },
    });
    const { gameKey } = (await gameRes.json()) as { gameKey: string };
    const team = await page.request.post(`${API}/teams`, { headers: send });
    const { teamKey } = (await team.json()) as { teamKey: string };
    const player = await page.request.put(`${API}/teams/${teamKey}/players/-1`, {
      headers: send,
      data: { jersey: '4', playerName: 'Mia Okafor', playerNotes: 'asthma inhaler in bag' },
    });
    expect(player.ok()).toBe(true);

    await openPage(page, '/');
    await page.getByRole('button', { name }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^sagan-my-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
      games: { gameKey: string }[];
      teams: { players: { playerName: string; playerNotes: string }[] }[];
    };
    expect(data.games.map((g) => g.gameKey)).toEqual([gameKey]);
    expect(data.teams[0]!.players[0]).toMatchObject({
      playerName: 'Mia Okafor',
      playerNotes: 'asthma inhaler in bag',
    });

    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const confirm = page.getByRole('button', { name: 'Delete my account', exact: true });
    await expect(confirm).toBeDisabled();
    await page.getByLabel('to confirm').fill('delete my account');
    await expect(confirm).toBeEnabled();
    await screenshot(page, 'account-delete-confirm');
    await confirm.click();
    await expect(page.getByText('Your account and everything in it are deleted.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();

    expect((await page.request.get(`${API}/games/${gameKey}`)).status()).toBe(404);
    expect((await page.request.get(`${API}/auth/me`)).status()).toBe(401);
  });
});
