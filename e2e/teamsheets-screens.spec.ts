import { PNG } from 'pngjs';
import { test, expect, unique, BASE, apiAs, signIn, screenshot } from './fixtures.ts';
import { createGroup, createTeam, rosterOf } from './seed.ts';

/** A simple made-up portrait (a face-coloured disc on a coloured ground), as a data URL. */
function portrait(ground: [number, number, number]): string {
  const size = 96;
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const face = (x - 48) ** 2 + (y - 44) ** 2 < 28 ** 2;
      const [r, g, b] = face ? [232, 190, 160] : ground;
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

// Screens a person looks at (STYLE: look at what you build), on a desktop and on a phone.
test('screenshots of every team sheet screen', async ({ page, request }) => {
  test.setTimeout(120_000);
  const ownerName = unique('Shot owner');
  await signIn(page, ownerName);
  const owner = await apiAs(request, ownerName);
  const teamKey = await createTeam(owner, {
    teamName: 'Riverside Hawks U12',
    teamNotes: 'Saturday league, field 3. Kick-off 9:30.',
    players: [
      '10 Bo Diaz',
      '2 Cy Ng',
      '33 Di Ottoline-Fairweather',
      '4 Ed Park',
      'GK Flo Rey',
      '7 Ann Lee',
    ],
  });
  const [a, b] = await rosterOf(owner, teamKey);
  const groupKey = await createGroup(owner, teamKey, 'First half', [
    [a!.key, 1],
    [b!.key, 2],
  ]);
  await owner.call('PUT', `/teams/${teamKey}/players/${a!.key}`, {
    jersey: '10',
    playerName: a!.playerName,
    playerNotes: 'Captain. Prefers the left wing.',
  });
  // Photos are served through the owner's sheet and the public sheet: both should show them.
  await owner.call('PUT', `/teams/${teamKey}/players/${a!.key}/photo`, {
    dataUrl: portrait([40, 90, 170]),
  });
  await owner.call('PUT', `/teams/${teamKey}/players/${b!.key}/photo`, {
    dataUrl: portrait([30, 140, 80]),
  });
  const { publishedAsKey } = (await owner.call('POST', `/teams/${teamKey}/publish`)) as {
    publishedAsKey: string;
  };

  const screens: [string, string, string][] = [
    ['list', '/teamsheets', 'My Teams'],
    ['edit', `/teamsheetedit/${teamKey}`, 'Riverside Hawks U12'],
    ['player-edit', `/teamsheetedit/${teamKey}/${a!.key}`, 'Edit Player'],
    ['group', `/teamsheetgroupedit/${teamKey}/${groupKey}`, 'First half'],
    ['bulk', `/teamsheetbulk/${teamKey}`, 'Bulk Upload'],
    ['public', `/teamsheets/${publishedAsKey}`, 'Riverside Hawks U12'],
    ['public-player', `/teamsheets/${publishedAsKey}/${a!.key}`, a!.playerName],
  ];
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const [name, path, heading] of screens) {
      await page.goto(`${BASE}${path}`);
      await expect(page.getByRole('heading', { name: new RegExp(heading) }).first()).toBeVisible();
      if (name === 'bulk') {
        await page.getByLabel('Players').fill('1 Ann Lee\n\n2\n3 Cy Ng');
        await page.getByRole('button', { name: 'Preview' }).click();
      }
      await page.waitForLoadState('networkidle');
      await screenshot(page, `teamsheets-${name}-${size}`);
    }
  }
});
