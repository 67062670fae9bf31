import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import type { Page } from '@playwright/test';
import { test, expect, unique, BASE, API, signIn, apiAs } from './fixtures.ts';
import { createTeam } from './seed.ts';

/** A small noisy PNG (noise keeps its data URL well over the 1024-character threshold). */
function photoPng(): Buffer {
  const png = new PNG({ width: 64, height: 64 });
  for (let i = 0; i < png.data.length; i++) {
    png.data[i] = i % 4 === 3 ? 255 : Math.floor(Math.random() * 256);
  }
  return PNG.sync.write(png);
}

function decodeQr(buffer: Buffer): string {
  const png = PNG.sync.read(buffer);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code found in the image');
  return code.data;
}

async function jerseys(page: Page): Promise<string[]> {
  return page.locator('table.roster tbody td.jersey').allTextContents();
}

const TEN_PLAYERS = [
  '10 Bo Diaz',
  '2\tCy Ng',
  '',
  '33 Di Ott',
  '4 Ed Park',
  'GK Flo Rey',
  '5 Gus Tan',
  '21 Hal Ume',
  '9 Ivy Vos',
  '1 Jo Wu',
  '8 Kim Xu',
].join('\n');

test.describe('team sheets', () => {
  test('owner builds, publishes and shares a sheet; a fan scans the QR code; a follower cannot edit', async ({
    page,
    browser,
    allowConsoleError,
  }) => {
    test.setTimeout(120_000);
    const teamName = unique('Hawks');
    await signIn(page, unique('Coach'));

    // Create a team: 'New Team' / 'Description', straight into its edit screen.
    await page.goto(`${BASE}/teamsheets`);
    await expect(page.getByRole('heading', { name: 'My Teams' })).toBeVisible();
    await page.getByRole('button', { name: 'Create New Team' }).click();
    await expect(page).toHaveURL(/\/teamsheetedit\/[\w-]+$/);
    const teamKey = page.url().split('/').pop()!;
    await expect(page.getByRole('heading', { name: 'New Team', level: 1 })).toBeVisible();
    await expect(page.getByText('Description')).toBeVisible();
    await expect(page.getByText('This page is private')).toBeVisible();
    await expect(
      page.getByText('Publish this team sheet to get a shareable link and QR code here.'),
    ).toBeVisible();

    // Rename it inline; cancel reloads, save keeps.
    await page.getByRole('button', { name: 'Edit team name and notes' }).click();
    await expect(page.getByText('You can change it at any time.')).toBeVisible();
    await expect(page.getByLabel('Notes for the team')).toHaveAttribute('rows', '6');
    await page.getByLabel("The Team's Name").fill('Not this');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: 'New Team', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Edit team name and notes' }).click();
    await page.getByLabel("The Team's Name").fill(teamName);
    await page.getByLabel('Notes for the team').fill('Saturday league, field 3');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { name: teamName, level: 1 })).toBeVisible();

    // Add a player with a photo (new player = key -1: the player edit screen, not the sheet).
    await page.getByRole('link', { name: 'Add Player' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}/-1`);
    await expect(page.getByRole('heading', { name: 'Add Player' })).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Jersey is required')).toBeVisible();
    await page.getByLabel('Jersey').fill('7');
    await page.getByLabel('Name', { exact: true }).fill('Ann Lee');
    await page.getByLabel('Notes').fill('Left foot');
    await page.getByLabel('Add Picture').setInputFiles({
      name: 'ann.png',
      mimeType: 'image/png',
      buffer: photoPng(),
    });
    await expect(page.getByAltText('Picture preview')).toHaveAttribute('src', /^data:image\/png/);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}`);
    const annRow = page.getByRole('row').filter({ hasText: 'Ann Lee' });
    // The owner's photo comes through their own sheet, never by a public file name.
    await expect(annRow.locator('img')).toHaveAttribute(
      'src',
      new RegExp(`${API}/teams/${teamKey}/players/[\\w-]+/photo\\?v=\\w+$`),
    );
    await expect
      .poll(() => annRow.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);

    // Two segments open the player screen for an existing player.
    await annRow.getByRole('link', { name: 'Edit Ann Lee' }).click();
    await expect(page).toHaveURL(new RegExp(`/teamsheetedit/${teamKey}/[\\w-]+$`));
    await expect(page.getByRole('heading', { name: 'Edit Player' })).toBeVisible();
    await expect(page.getByLabel('Jersey')).toHaveValue('7');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Bulk upload ten players; a line without a name is marked and blocks the save.
    await page.getByRole('link', { name: 'Bulk Upload' }).click();
    await expect(page.getByLabel('Players')).toHaveAttribute('rows', '14');
    await expect(page.getByLabel('Players')).toHaveAttribute('cols', '80');
    await expect(
      page.getByText(
        "The first column should be the player's jersey number followed by their name.",
      ),
    ).toBeVisible();
    await page.getByLabel('Players').fill(`${TEN_PLAYERS}\n12`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('cell', { name: 'Missing name' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await page.getByLabel('Players').fill(TEN_PLAYERS);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByText('10 players to add')).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}`);
    await expect(page.locator('table.roster tbody tr')).toHaveCount(11);

    // A lineup group: hidden table until named, then cycle Ann through every state.
    await page.getByRole('link', { name: 'Add Group' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheetgroupedit/${teamKey}`);
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.getByLabel("The Group's Name").fill('Lineup A');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(new RegExp(`/teamsheetgroupedit/${teamKey}/[\\w-]+$`));
    await expect(page.getByRole('heading', { name: 'Lineup A' })).toBeVisible();
    const toggle = page.getByRole('button', { name: /^Ann Lee: / });
    await expect(toggle).toHaveText('Rested');
    for (const state of ['Sideline', 'Playing', 'Rested', 'Sideline', 'Playing']) {
      await toggle.click();
      await expect(toggle).toHaveText(state);
    }
    await page.getByRole('button', { name: /^Bo Diaz: / }).click();
    await expect(page.getByRole('button', { name: /^Bo Diaz: / })).toHaveText('Sideline');
    await page.getByRole('link', { name: `← ${teamName}` }).click();
    // The desktop's Groups column (a phone shows the same badges under the name instead).
    await expect(annRow.locator('.groups-col .badge.playing')).toHaveText('Lineup A');
    await expect(
      page.getByRole('row').filter({ hasText: 'Bo Diaz' }).locator('.groups-col .badge.sideline'),
    ).toHaveText('Lineup A');
    await expect(page.getByRole('row').filter({ hasText: 'Cy Ng' }).locator('.badge')).toHaveCount(
      0,
    );

    // Publish; the QR code carries the absolute public link.
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Published Successfully')).toBeVisible();
    const qr = page.getByAltText('Link to published sheet');
    await expect(qr).toBeVisible();
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const qrRes = await page.request.get(new URL((await qr.getAttribute('src'))!, page.url()).href);
    expect(qrRes.headers()['content-type']).toBe('image/png');
    const publicUrl = decodeQr(await qrRes.body());
    expect(publicUrl).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+${BASE}/teamsheets/[\\w-]+$`),
    );

    // A fan, signed out, opens the scanned link.
    const fan = await browser.newContext();
    const fanPage = await fan.newPage();
    await fanPage.goto(publicUrl);
    await expect(fanPage.getByRole('heading', { name: teamName, level: 1 })).toBeVisible();
    await expect(fanPage.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(await jerseys(fanPage)).toEqual([
      '1',
      '2',
      '4',
      '5',
      '7',
      '8',
      '9',
      '10',
      '21',
      '33',
      'GK',
    ]);
    await fanPage.getByPlaceholder('Search...').fill('LEE');
    await expect(fanPage.locator('table.roster tbody tr')).toHaveCount(1);
    await fanPage.getByPlaceholder('Search...').fill('o');
    expect(await jerseys(fanPage)).toEqual(['1', '9', '10', '33', 'GK']);
    await fanPage.getByPlaceholder('Search...').fill('');
    await expect(fanPage.locator('table.roster tbody tr')).toHaveCount(11);
    await fanPage.getByRole('link', { name: 'Ann Lee' }).click();
    await expect(fanPage.getByRole('heading', { name: '#7 - Ann Lee' })).toBeVisible();
    // A new team keeps player notes off the public sheet (they often hold health details).
    await expect(fanPage.getByText('Left foot')).toHaveCount(0);
    await expect(fanPage.getByAltText('Ann Lee')).toHaveAttribute(
      'src',
      /\/api\/rosters\/[\w-]+\/players\/[\w-]+\/photo/,
    );
    await expect
      .poll(() =>
        fanPage.getByAltText('Ann Lee').evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBeGreaterThan(0);
    await fanPage.goBack();
    await fanPage.getByRole('link', { name: 'Bo Diaz' }).click();
    // No photo: the local missing-avatar image.
    await expect(fanPage.getByAltText('Bo Diaz')).toHaveAttribute(
      'src',
      `${BASE}/img/missingAvatar.jpg`,
    );
    await fan.close();

    // A second user follows it, sees it under Following, and cannot edit the owner's sheet.
    const second = await browser.newContext();
    const secondPage = await second.newPage();
    await signIn(secondPage, unique('Parent'));
    await secondPage.goto(publicUrl);
    const star = secondPage.getByRole('button', { name: 'Follow this team sheet' });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    await secondPage.goto(`${BASE}/teamsheets`);
    const following = secondPage.getByRole('listitem').filter({ hasText: teamName });
    await expect(following.getByRole('link', { name: `View ${teamName}` })).toBeVisible();
    await expect(secondPage.getByRole('link', { name: `Edit ${teamName}` })).toHaveCount(0);
    for (const path of [
      `/teamsheetedit/${teamKey}`,
      `/teamsheetedit/${teamKey}/-1`,
      `/teamsheetbulk/${teamKey}`,
      `/teamsheetgroupedit/${teamKey}`,
    ]) {
      await secondPage.goto(`${BASE}${path}`);
      await expect(secondPage.getByRole('heading', { name: 'Not found' })).toBeVisible();
    }
    // The server refuses, not just the screens.
    const headers = { 'x-sagan-request': '1' };
    expect((await secondPage.request.get(`${API}/teams/${teamKey}`)).status()).toBe(404);
    const patch = await secondPage.request.patch(`${API}/teams/${teamKey}`, {
      headers,
      data: { teamName: 'Taken', teamNotes: '' },
    });
    expect(patch.status()).toBe(404);
    const publish = await secondPage.request.post(`${API}/teams/${teamKey}/publish`, { headers });
    expect(publish.status()).toBe(404);
    await second.close();

    // The owner unpublishes: the public link now shows not-found.
    await page.reload();
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await expect(
      page.getByText('Publish this team sheet to get a shareable link and QR code here.'),
    ).toBeVisible();
    // An unpublished sheet's page answers 404, which the browser logs.
    allowConsoleError(/teamsheets\/[^:]*: Failed to load resource: .* 404/, 'the sheet is gone');
    await page.goto(publicUrl);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  });

  test('an open public sheet follows the owner republishing', async ({ page, request }) => {
    const owner = await apiAs(request, unique('Live owner'));
    const teamKey = await createTeam(owner, { teamName: 'Before' });
    const { publishedAsKey } = (await owner.call('POST', `/teams/${teamKey}/publish`)) as {
      publishedAsKey: string;
    };
    await page.goto(`${BASE}/teamsheets/${publishedAsKey}`);
    await expect(page.getByRole('heading', { name: 'Before', level: 1 })).toBeVisible();
    await owner.call('PATCH', `/teams/${teamKey}`, { teamName: 'After', teamNotes: '' });
    await owner.call('PUT', `/teams/${teamKey}/players/-1`, { jersey: '3', playerName: 'New Kid' });
    await owner.call('POST', `/teams/${teamKey}/publish`);
    await expect(page.getByRole('heading', { name: 'After', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New Kid' })).toBeVisible();
  });

  test('a signed-out visitor is invited to sign in; edit screens go to Login', async ({ page }) => {
    await page.goto(`${BASE}/teamsheets`);
    await expect(page.getByRole('link', { name: 'Sign in to see your teams' })).toBeVisible();
    await page.goto(`${BASE}/teamsheetedit/someteamkey`);
    await expect(page).toHaveURL(/\/login\?next=/);
  });

  test('deleting a player asks first', async ({ page }) => {
    const owner = await apiAs(page.request, unique('Coach D'));
    const teamKey = await createTeam(owner);
    const p = (await owner.call('PUT', `/teams/${teamKey}/players/-1`, {
      jersey: '5',
      playerName: 'Gone Soon',
    })) as { key: string };
    await page.goto(`${BASE}/teamsheetedit/${teamKey}/${p.key}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('Delete this player?')).toBeVisible();
    await page.getByRole('button', { name: 'No, keep' }).click();
    await expect(page.getByText('Delete this player?')).toHaveCount(0);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    // Opened a second time in the same document: autoFocus alone would not focus it on Preact.
    await expect(page.getByRole('button', { name: 'Yes, delete' })).toBeFocused();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}`);
    await expect(page.getByText('Gone Soon')).toHaveCount(0);
    await page.goto(`${BASE}/teamsheetedit/${teamKey}/-1`);
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  });
});
