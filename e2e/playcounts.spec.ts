import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { PNG } from 'pngjs';
import type { Page } from '@playwright/test';
import { test, expect, unique, BASE, API, signIn, screenshot } from './fixtures.ts';
import { createTeam, putPlayCount, newPlayCountKey } from './seed.ts';

/** A game as Player Counter writes it (DESIGN §6). */
function game(name: string, overrides: Record<string, unknown> = {}) {
  return {
    gameName: name,
    gameDate: '2025-09-13',
    roster: [
      { key: 'p1', jersey: '7', playerName: 'Lee, Ann', playCount: 2, location: 1 },
      {
        key: 'p2',
        jersey: '23',
        playerName: 'Bo "Flash" Ray',
        playCount: 1,
        location: 2,
        // Broken on purpose: the page must fall back to the placeholder.
        imageURL: `${BASE}/img/no-such-photo.jpg`,
      },
    ],
    snaps: [
      { snapCount: 1, groupName: 'Offense', quarter: 1, p1: true },
      { snapCount: 2, groupName: 'Defense', quarter: 1, p1: true, p2: true },
    ],
    ...overrides,
  };
}

const rosterRow = (page: Page, name: string) =>
  page.getByRole('table').first().getByRole('row').filter({ hasText: name });

test.describe('play counts', () => {
  test.use({
    allowConsoleErrors: [
      {
        match: /\/img\/no-such-photo\.jpg: Failed to load resource: .*\b404\b/,
        reason: "game()'s second player has a broken photo on purpose (the placeholder shows)",
      },
    ],
  });

  test('a game written by Player Counter shows in the list and detail, and updates live', async ({
    signedInPage: page,
    api,
  }) => {
    const gameName = unique('Eagles at Hawks');
    const gameKey = await putPlayCount(api, game(gameName));

    await page.goto(`${BASE}/playcounts`);
    await expect(page.getByRole('heading', { name: 'Play Counts', level: 1 })).toBeVisible();
    // One name for the phone app everywhere (DESIGN §8).
    await expect(page.getByText('Player Counter app')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'My Play Counts' })).toBeVisible();
    const item = page.getByRole('listitem').filter({ hasText: gameName });
    // The date as the reader's locale writes it (Playwright's browser: en-US).
    await expect(item).toContainText('Sep 13, 2025');
    await item.getByRole('link', { name: /View/ }).click();

    await expect(page).toHaveURL(`${BASE}/playcount/${gameKey}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Sep 13, 2025 ${gameName}`);
    const table = page.getByRole('table').first();
    for (const col of ['Jersey', 'Name', 'Plays', 'Location']) {
      await expect(table.getByRole('columnheader', { name: col, exact: true })).toBeVisible();
    }
    await expect(table.getByRole('columnheader', { name: '2 Defense' })).toBeVisible();
    const ann = rosterRow(page, 'Lee, Ann');
    await expect(ann).toContainText('On Field');
    await expect(ann.getByRole('img', { name: 'In this snap' })).toHaveCount(2);
    const bo = rosterRow(page, 'Bo "Flash" Ray');
    await expect(bo).toContainText('Sideline');
    await expect(bo.getByRole('img', { name: 'In this snap' })).toHaveCount(1);
    // Both the missing and the broken image end on the placeholder.
    for (const row of [ann, bo]) {
      await expect(row.locator('img.pc-avatar')).toHaveAttribute('src', /missingAvatar\.jpg$/);
    }
    const summary = page.getByRole('table').nth(1);
    await expect(summary.getByRole('columnheader')).toHaveText([
      'Group',
      'Qtr 1',
      'Qtr 2',
      'Qtr 3',
      'Qtr 4',
    ]);
    await expect(summary.getByRole('row', { name: /Offense/ })).toHaveText(
      /Offense\s*1\s*0\s*0\s*0/,
    );
    await expect(page.getByRole('link', { name: 'Player Counter app' })).toHaveAttribute(
      'href',
      'https://club.example/player-counter',
    );

    // The phone writes again during the game; the open page follows without a reload.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await api.call(
      'PUT',
      `/playcounts/${gameKey}`,
      game(gameName, {
        roster: [
          { key: 'p1', jersey: '7', playerName: 'Lee, Ann', playCount: 3, location: 2 },
          { key: 'p2', jersey: '23', playerName: 'Bo "Flash" Ray', playCount: 2, location: 1 },
        ],
        snaps: [
          ...game(gameName).snaps,
          { snapCount: 3, groupName: 'Offense', quarter: 2, p1: true, p2: true },
        ],
      }),
    );
    await expect(table.getByRole('columnheader', { name: '3 Offense' })).toBeVisible();
    await expect(ann).toContainText('Sideline');
    await expect(ann.locator('.pc-plays')).toHaveText('3');
    await expect(bo.getByRole('img', { name: 'In this snap' })).toHaveCount(2);
    await expect(summary.getByRole('row', { name: /Offense/ })).toHaveText(
      /Offense\s*1\s*1\s*0\s*0/,
    );
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
      true,
    );
  });

  test('Archive hides a game from the default list and Restore brings it back', async ({
    signedInPage: page,
    api,
  }) => {
    const gameName = unique('Archive me');
    const gameKey = await putPlayCount(api, game(gameName));

    await page.goto(`${BASE}/playcount/${gameKey}`);
    await page.getByRole('button', { name: 'Archive' }).click();
    await expect(page.getByRole('button', { name: 'Restore' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Archived');

    await page.goto(`${BASE}/playcounts`);
    const item = page.getByRole('listitem').filter({ hasText: gameName });
    await expect(page.getByRole('button', { name: 'Show Archived' })).toBeVisible();
    await expect(item).toHaveCount(0);
    await page.getByRole('button', { name: 'Show Archived' }).click();
    await expect(item).toContainText('Archived');
    await expect(page.getByRole('button', { name: 'Hide Archived' })).toBeVisible();

    await item.getByRole('link', { name: /View/ }).click();
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByRole('button', { name: 'Archive' })).toBeVisible();
    await page.goto(`${BASE}/playcounts`);
    await expect(page.getByRole('listitem').filter({ hasText: gameName })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: gameName })).not.toContainText(
      'Archived',
    );
  });

  test('the coach sets a minimum, players below it are marked, and the CSV says who met it', async ({
    signedInPage: page,
    api,
  }) => {
    const gameKey = await putPlayCount(api, game(unique('CSV')));
    await page.goto(`${BASE}/playcount/${gameKey}`);

    // Without a minimum: the original three columns.
    let download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    let file = await download;
    expect(file.suggestedFilename()).toBe('2025-09-13-PlayCounts.csv');
    // Excel on Windows reads UTF-8 only after the byte-order mark; the SPEC's header follows it.
    const bytes = fs.readFileSync((await file.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8').split('\r\n')[0]).toBe('Jersey,Player,CountedPlays');
    expect(parse(bytes.toString('utf8'), { bom: true })).toEqual([
      ['Jersey', 'Player', 'CountedPlays'],
      ['7', 'Lee, Ann', '2'],
      ['23', 'Bo "Flash" Ray', '1'],
    ]);

    await page.getByLabel('Minimum plays per player').fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('1 player is below 2 plays.')).toBeVisible();
    await expect(rosterRow(page, 'Bo "Flash" Ray')).toContainText('Below minimum');
    await expect(rosterRow(page, 'Lee, Ann')).not.toContainText('Below minimum');

    download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    file = await download;
    expect(parse(fs.readFileSync((await file.path())!, 'utf8'), { bom: true })).toEqual([
      ['Jersey', 'Player', 'CountedPlays', 'MetMinimum'],
      ['7', 'Lee, Ann', '2', 'Yes'],
      ['23', 'Bo "Flash" Ray', '1', 'No'],
    ]);

    // A bad value is refused in one sentence and stays in the box.
    await page.getByLabel('Minimum plays per player').fill('-4');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toContainText('whole number');
    await expect(page.getByLabel('Minimum plays per player')).toHaveValue('-4');
  });

  test("a player's photo from the coach's sheet shows through the play count, to the coach only", async ({
    signedInPage: page,
    api,
  }) => {
    const teamKey = await createTeam(api);
    const player = (await api.call('PUT', `/teams/${teamKey}/players/-1`, {
      jersey: '7',
      playerName: 'Ann Lee',
    })) as { key: string };
    const png = new PNG({ width: 24, height: 24 });
    png.data.fill(120);
    const { imageURL } = (await api.call('PUT', `/teams/${teamKey}/players/${player.key}/photo`, {
      dataUrl: `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`,
    })) as { imageURL: string };
    const gameKey = newPlayCountKey();
    const base = game(unique('Photo game'));
    const roster = base.roster.map((e, i) => (i === 0 ? { ...e, imageURL } : e));
    await api.call('PUT', `/playcounts/${gameKey}`, { ...base, roster });

    await page.goto(`${BASE}/playcount/${gameKey}`);
    const avatar = rosterRow(page, 'Lee, Ann').locator('img');
    const photoPath = `${API}/playcounts/${gameKey}/players/p1/photo`;
    await expect(avatar).toHaveAttribute('src', photoPath);
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(page, 'playcount-with-photo');
    const strangerView = await page.context().browser()!.newContext();
    expect((await strangerView.request.get(photoPath)).status()).toBe(401);
    await strangerView.close();
  });

  test("another signed-in user gets nothing of a coach's play count", async ({
    page,
    api,
    person,
    browser,
  }) => {
    const gameName = unique('Private game');
    const gameKey = await putPlayCount(api, game(gameName));

    const stranger = unique('Stranger');
    await signIn(page, stranger);
    const read = await page.request.get(`${API}/playcounts/${gameKey}`);
    expect([403, 404]).toContain(read.status());
    const list = (await (await page.request.get(`${API}/playcounts`)).json()) as {
      games: { gameKey: string }[];
    };
    expect(list.games.some((g) => g.gameKey === gameKey)).toBe(false);
    const write = await page.request.patch(`${API}/playcounts/${gameKey}`, {
      headers: { 'x-sagan-request': '1' },
      data: { archived: true },
    });
    expect([403, 404]).toContain(write.status());
    const overwrite = await page.request.put(`${API}/playcounts/${gameKey}`, {
      headers: { 'x-sagan-request': '1' },
      data: game('Hijacked'),
    });
    expect(overwrite.status()).toBe(403);

    await page.goto(`${BASE}/playcount/${gameKey}`);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    await expect(page.getByText(gameName)).toHaveCount(0);

    // Nothing changed for the owner.
    const ctx = await browser.newContext();
    const owner = await ctx.newPage();
    await signIn(owner, person);
    const mine = await owner.request.get(`${API}/playcounts/${gameKey}`);
    expect(await mine.json()).toMatchObject({ gameName, archived: false });
    await ctx.close();
  });

  test('screenshots: list and a 60-snap game on a phone and a desktop; names stay visible', async ({
    signedInPage: page,
    api,
  }) => {
    const gameKey = newPlayCountKey();
    const roster = Array.from({ length: 14 }, (_, i) => ({
      key: `p${i}`,
      jersey: String(i + 1),
      playerName: ['Ann Lee', 'Bo Ray', 'Cy Wu', 'Di Park', 'Ed Stone', 'Flo Kim', 'Gus Ito'][
        i % 7
      ]!,
      playCount: 0,
      location: (i % 3 === 0 ? 2 : 1) as 1 | 2,
    }));
    const snaps = Array.from({ length: 64 }, (_, s) => {
      const snap: Record<string, unknown> = {
        snapCount: s + 1,
        groupName: ['Offense', 'Defense', 'Kickoff'][s % 3],
        quarter: Math.min(4, Math.floor(s / 16) + 1),
      };
      roster.forEach((p, i) => {
        if ((s + i) % 3 !== 0) snap[p.key] = true;
      });
      return snap;
    });
    for (const p of roster) {
      p.playCount = snaps.filter((s) => s[p.key] === true).length - (p.key === 'p4' ? 20 : 0);
    }
    await api.call('PUT', `/playcounts/${gameKey}`, {
      gameName: 'Eagles at Hawks (varsity)',
      gameDate: '2025-09-13',
      roster,
      snaps,
      minPlays: 30,
    });
    await api.call(
      'PUT',
      `/playcounts/${newPlayCountKey()}`,
      game('Lions at Tigers', { gameDate: '2025-09-06' }),
    );
    const old = newPlayCountKey();
    await api.call('PUT', `/playcounts/${old}`, game('Bears at Owls', { gameDate: '2025-08-30' }));
    await api.call('PATCH', `/playcounts/${old}`, { archived: true });

    for (const [label, size] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(`${BASE}/playcounts`);
      await page.getByRole('button', { name: 'Show Archived' }).click();
      await expect(page.getByText('Bears at Owls')).toBeVisible();
      await screenshot(page, `playcounts-list-${label}`);

      await page.goto(`${BASE}/playcount/${gameKey}`);
      await expect(page.getByRole('columnheader', { name: '64 Offense' })).toBeAttached();
      // The page itself never scrolls sideways; the roster frame does.
      const docWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(docWidth).toBeLessThanOrEqual(size.width);
      await screenshot(page, `playcount-detail-${label}`);

      const frame = page.getByRole('region', { name: 'Plays per player' });
      await frame.evaluate((el) => (el.scrollLeft = el.scrollWidth));
      const name = page.getByRole('rowheader', { name: /Cy Wu/ }).first();
      const frameBox = (await frame.boundingBox())!;
      const nameBox = (await name.boundingBox())!;
      expect(nameBox.x).toBeGreaterThanOrEqual(frameBox.x - 1);
      expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(frameBox.x + frameBox.width);
      await frame.screenshot({
        path: new URL(`../.tmp/screens/playcount-scrolled-${label}.png`, import.meta.url).pathname,
      });
    }
  });
});
