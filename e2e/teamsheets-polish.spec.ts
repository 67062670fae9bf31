import { PNG } from 'pngjs';
import type { Page } from '@playwright/test';
import { test, expect, unique, BASE, screenshot, apiAs } from './fixtures.ts';
import { createTeam } from './seed.ts';

/** A small noisy PNG (noise keeps its data URL over the 1024-character threshold). */
function photoPng(): Buffer {
  const png = new PNG({ width: 48, height: 48 });
  for (let i = 0; i < png.data.length; i++) {
    png.data[i] = i % 4 === 3 ? 255 : Math.floor(Math.random() * 256);
  }
  return PNG.sync.write(png);
}

/** Signs the page in as name, with a new team: its owner's API calls, and its key. */
async function newTeam(page: Page, name: string) {
  const owner = await apiAs(page.request, name);
  return { owner, teamKey: await createTeam(owner) };
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await screenshot(page, `teamsheets-polish-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe('team sheet polish', () => {
  test('a picture the server refuses saves nothing; the retry adds exactly one player', async ({
    page,
    allowConsoleError,
  }) => {
    allowConsoleError(/415/, 'the server refuses the renamed text file, as the test intends');
    const { teamKey } = await newTeam(page, unique('Photo coach'));
    await page.goto(`${BASE}/teamsheetedit/${teamKey}/-1`);
    await page.getByLabel('Jersey').fill('9');
    await page.getByLabel('Name', { exact: true }).fill('Nia Retry');
    await page.getByLabel('Add Picture').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is a text file with a .png name, '.repeat(40)),
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('That file is not a picture we can read')).toBeVisible();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}/-1`);
    await page.getByLabel('Add Picture').setInputFiles({
      name: 'nia.png',
      mimeType: 'image/png',
      buffer: photoPng(),
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}`);
    await expect(page.locator('table.roster tbody tr')).toHaveCount(1);
    await expect(
      page.getByRole('row').filter({ hasText: 'Nia Retry' }).locator('img'),
    ).toHaveAttribute('src', /\/photo\?v=/);
  });

  test('the player form says what is wrong, and that notes are public unless hidden', async ({
    page,
  }) => {
    const { teamKey } = await newTeam(page, unique('Form coach'));
    await page.goto(`${BASE}/teamsheetedit/${teamKey}/-1`);
    await expect(
      page.getByText(/notes show on the published sheet unless the team hides them/),
    ).toBeVisible();
    await page.getByLabel('Jersey').fill('#7');
    await page.getByLabel('Name', { exact: true }).fill('Chloé');
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.getByText('Jersey can only have numbers and letters (no spaces or symbols)');
    await expect(error).toBeVisible();
    await expect(error).toHaveClass(/form-error/);
    // The help text stays what it was, not red.
    await expect(page.locator('#jersey-help')).toHaveClass('help');
    await expect(page.getByLabel('Jersey')).toHaveAttribute('aria-invalid', 'true');
    await shoot(page, 'player-form');
  });

  test('double-clicking Create New Team makes one team; a team can be deleted', async ({
    signedInPage: page,
    browser,
  }) => {
    await page.goto(`${BASE}/teamsheets`);
    await expect(page.getByRole('heading', { name: 'My Teams' })).toBeVisible();
    await page.getByRole('button', { name: 'Create New Team' }).dblclick();
    await expect(page).toHaveURL(/\/teamsheetedit\/[\w-]+$/);
    const teamKey = page.url().split('/').pop()!;
    await page.goto(`${BASE}/teamsheets`);
    await expect(page.getByRole('link', { name: 'Edit New Team' })).toHaveCount(1);

    await page.goto(`${BASE}/teamsheetedit/${teamKey}`);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(
      page.getByText('Published: changes show on the public sheet at once.'),
    ).toBeVisible();
    const publicUrl = await page.locator('.share-url').getAttribute('href');
    const fan = await browser.newContext();
    const fanPage = await fan.newPage();
    await fanPage.goto(publicUrl!);
    await expect(fanPage.getByRole('heading', { name: 'New Team', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Delete team' }).click();
    await expect(page.getByText(/Delete New Team\? Its players, groups, photos/)).toBeVisible();
    await shoot(page, 'delete-confirm');
    await page.getByRole('button', { name: 'No, keep' }).click();
    await page.getByRole('button', { name: 'Delete team' }).click();
    await page.getByRole('button', { name: 'Yes, delete team' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheets`);
    await expect(page.getByText('You have no teams yet.')).toBeVisible();
    // The open public page learns it at once.
    await expect(fanPage.getByRole('heading', { name: 'Not found' })).toBeVisible();
    await fan.close();
  });

  test('an open public sheet follows edits without publishing again; rows open players; Copy link', async ({
    page,
    browser,
  }) => {
    const { owner, teamKey } = await newTeam(page, unique('Live coach'));
    await owner.call('PATCH', `/teams/${teamKey}`, { teamName: 'Riverside Hawks', teamNotes: '' });
    await owner.call('PUT', `/teams/${teamKey}/players/-1`, {
      jersey: '3',
      playerName: 'Ana Notes',
      playerNotes: 'Allergic to peanuts — EpiPen',
    });
    const { publishedAsKey } = (await owner.call('POST', `/teams/${teamKey}/publish`)) as {
      publishedAsKey: string;
    };
    const fan = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await fan.grantPermissions(['clipboard-read', 'clipboard-write']);
    const fanPage = await fan.newPage();
    await fanPage.goto(`${BASE}/teamsheets/${publishedAsKey}`);
    await expect(fanPage.getByRole('link', { name: 'Ana Notes' })).toBeVisible();
    await expect(fanPage.getByText('EpiPen')).toHaveCount(0);

    // The owner adds a player in the browser; no Publish pressed.
    await page.goto(`${BASE}/teamsheetedit/${teamKey}/-1`);
    await page.getByLabel('Jersey').fill('8');
    await page.getByLabel('Name', { exact: true }).fill('Chloé Zoë');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}`);
    await expect(fanPage.getByRole('link', { name: 'Chloé Zoë' })).toBeVisible();

    // The share link with Copy link sits above the roster, the QR code folded under it.
    const copy = fanPage.getByRole('button', { name: 'Copy link' });
    const table = fanPage.locator('table.roster');
    expect((await copy.boundingBox())!.y).toBeLessThan((await table.boundingBox())!.y);
    await copy.click();
    await expect(fanPage.getByText('Link copied')).toBeVisible();
    expect(await fanPage.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`${BASE}/teamsheets/${publishedAsKey}$`),
    );
    await shoot(fanPage, 'public');

    // A tap on the jersey (not the name) opens the player; so does Enter on the row's link.
    // A real tap where the jersey is drawn: the link's box covers it, as it should.
    const jersey = await fanPage
      .getByRole('row')
      .filter({ hasText: 'Chloé Zoë' })
      .locator('td.jersey')
      .boundingBox();
    await fanPage.mouse.click(jersey!.x + jersey!.width / 2, jersey!.y + jersey!.height / 2);
    await expect(fanPage.getByRole('heading', { name: '#8 - Chloé Zoë' })).toBeVisible();
    await fanPage.goBack();
    await fanPage.getByRole('link', { name: 'Ana Notes' }).focus();
    await fanPage.keyboard.press('Enter');
    await expect(fanPage.getByRole('heading', { name: '#3 - Ana Notes' })).toBeVisible();
    await expect(fanPage.getByText('EpiPen')).toHaveCount(0);
    await fan.close();

    await page.goto(`${BASE}/teamsheetedit/${teamKey}`);
    await expect(page.getByLabel('Hide notes on the public sheet')).toBeChecked();
    await shoot(page, 'edit');
  });

  test('bulk upload keeps accents and counts only lines that become players', async ({ page }) => {
    const { teamKey } = await newTeam(page, unique('Bulk coach'));
    await page.goto(`${BASE}/teamsheetbulk/${teamKey}`);
    await page.getByLabel('Players').fill('8 Chloé\n\n12\n#4 Bad Jersey\n9 Ñandú Pérez');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByText('2 players to add.')).toBeVisible();
    await expect(page.getByText('2 lines to fix before saving:')).toBeVisible();
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Line 3: Missing name' }),
    ).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Chloé' })).toBeVisible();
    await shoot(page, 'bulk');
    await page.getByLabel('Players').fill('8 Chloé\n9 Ñandú Pérez');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Save' }).dblclick();
    await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}`);
    await expect(page.locator('table.roster tbody tr')).toHaveCount(2);
    await expect(page.getByRole('cell', { name: 'Ñandú Pérez', exact: true })).toBeVisible();
  });

  test('the team name shows its limit instead of cutting a long name', async ({ page }) => {
    const { teamKey } = await newTeam(page, unique('Name coach'));
    await page.goto(`${BASE}/teamsheetedit/${teamKey}`);
    await page.getByRole('button', { name: 'Edit team name and notes' }).click();
    await expect(page.getByText('8 / 100 characters')).toBeVisible();
    const long = 'Riverside Hawks Under Twelve '.repeat(4);
    await page.getByLabel("The Team's Name").fill(long);
    await expect(page.getByLabel("The Team's Name")).toHaveValue(long);
    await expect(page.getByText(`${long.length} / 100 characters`)).toHaveClass(/form-error/);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The team name is too long: at most 100 characters',
    );
    await shoot(page, 'team-name');
  });
});
