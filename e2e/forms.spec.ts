import type { Page } from '@playwright/test';
import { test, expect, unique, BASE, screenshot, apiAs } from './fixtures.ts';
import { createTeam } from './seed.ts';

// What a coach tripped over in the team sheet's forms: errors that outlive their cause, a
// picture dropped without a word, a paste refused for its comma or accepted without a warning.

/** Signs the page in as coach, with a team of these players ('7 Ann Lee'); answers its key. */
async function newTeam(page: Page, coach: string, players: string[]) {
  return createTeam(await apiAs(page.request, coach), { players });
}

test('a field error goes as soon as the field is valid, not at the next Save', async ({ page }) => {
  const teamKey = await newTeam(page, unique('Form coach'), []);
  await page.goto(`${BASE}/teamsheetedit/${teamKey}/-1`);
  await page.getByRole('button', { name: 'Save' }).click();
  const jerseyError = page.getByText('Jersey is required');
  const nameError = page.getByText('Name is required');
  await expect(jerseyError).toBeVisible();
  await expect(nameError).toBeVisible();
  await page.setViewportSize({ width: 320, height: 844 });
  await screenshot(page, 'forms-player-errors-320');

  await page.getByLabel('Jersey').fill('15');
  await expect(jerseyError).toHaveCount(0);
  await expect(page.getByLabel('Jersey')).not.toHaveAttribute('aria-invalid', 'true');
  // The other field is still empty: its error stays.
  await expect(nameError).toBeVisible();

  // A new mistake is said at the next Save, and goes as soon as it is fixed.
  await page.getByLabel('Jersey').fill('#15');
  const symbolError = page.getByText('Jersey can only have numbers and letters');
  await expect(symbolError).toHaveCount(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(symbolError).toBeVisible();
  await page.getByLabel('Jersey').fill('15');
  await expect(symbolError).toHaveCount(0);

  await page.getByLabel('Name', { exact: true }).fill('Sam Lee');
  await expect(nameError).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
});

test('a picture that would not be saved says why', async ({ page }) => {
  const teamKey = await newTeam(page, unique('Photo coach'), []);
  await page.goto(`${BASE}/teamsheetedit/${teamKey}/-1`);
  const picker = page.getByLabel('Add Picture');

  // A real PNG, but under 1 KB: SPEC §5 never uploads it.
  const tinyPng = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await picker.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: tinyPng });
  await expect(page.getByRole('alert')).toHaveText(
    'That picture is too small (under 1 KB). Please choose a larger one.',
  );

  await picker.setInputFiles({
    name: 'roster.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('7 Ann Lee\n'),
  });
  await expect(page.getByRole('alert')).toHaveText(
    '“roster.txt” is not a picture. Please choose a JPEG or PNG file.',
  );

  await picker.setInputFiles({ name: 'photo', mimeType: 'image/png', buffer: tinyPng });
  await expect(page.getByRole('alert')).toHaveText(
    '“photo” has no file type (like .jpg) in its name. Please rename it.',
  );
});

test('bulk upload takes "15, Sam Lee" and warns of jerseys already taken; the coach decides', async ({
  page,
}) => {
  const teamKey = await newTeam(page, unique('Bulk coach'), ['7 Ann Lee']);
  await page.goto(`${BASE}/teamsheetbulk/${teamKey}`);
  await page
    .getByLabel('Players')
    .fill(['15, Sam Lee', '16\tSue Ray', '7 Bo Ng', '15 Cy Wu'].join('\n'));
  await page.getByRole('button', { name: 'Preview' }).click();

  await expect(page.getByText('4 players to add.')).toBeVisible();
  await expect(page.getByText('to fix before saving')).toHaveCount(0);
  const row = (line: number) => page.locator('table.bulk-preview tbody tr').nth(line - 1);
  await expect(row(1)).toContainText('15Sam LeeOK');
  await expect(row(2)).toContainText('16Sue RayOK');
  await expect(row(3)).toContainText('7Bo NgSame jersey');
  await expect(row(4)).toContainText('15Cy WuSame jersey');
  await expect(page.getByText('2 lines repeat a jersey.')).toBeVisible();
  await expect(page.locator('.bulk-problems li')).toHaveText([
    'Line 3: Jersey 7 is already on the sheet (Ann Lee)',
    'Line 4: Jersey 15 is also on line 1',
  ]);
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await screenshot(page, `forms-bulk-warnings-${width}`);
  }

  // A warning, not a refusal: the coach saves, and every line becomes a player.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(`${BASE}/teamsheetedit/${teamKey}`);
  const roster = page.locator('table.roster tbody');
  await expect(roster.locator('tr')).toHaveCount(5);
  for (const name of ['Ann Lee', 'Sam Lee', 'Sue Ray', 'Bo Ng', 'Cy Wu']) {
    await expect(roster).toContainText(name);
  }
});
