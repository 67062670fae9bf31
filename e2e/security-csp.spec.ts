import { test, expect, unique, BASE, apiAs, signIn } from './fixtures.ts';

// Our CSP allows no eval. Zod probes for it (new Function) unless told to be jitless: every page
// then filed a script-src violation although nothing broke. No page of SPEC §2 may report one.

test('no page reports a Content-Security-Policy violation', async ({
  page,
  request,
  allowConsoleError,
}) => {
  test.setTimeout(180_000);
  allowConsoleError(
    /\/no-such-page: Failed to load resource: .*\b404\b/,
    'the not-found page is answered with a 404 status, which Chromium logs',
  );
  const name = unique('CSP coach');
  const me = await apiAs(request, name);
  await signIn(page, name);

  const { gameKey } = (await me.call('POST', '/games', {
    gameName: 'CSP cup',
    homeTeamName: 'Lions',
    awayTeamName: 'Tigers',
  })) as { gameKey: string };
  await me.call('POST', `/games/${gameKey}/comments`, { gameComment: 'Kick-off' });
  const tag = unique('csp').replace(' ', '');
  const { tags } = (await me.call('PUT', `/games/${gameKey}/tags`, { tags: [tag] })) as {
    tags: { key: string }[];
  };
  const { teamKey } = (await me.call('POST', '/teams')) as { teamKey: string };
  await me.call('POST', `/teams/${teamKey}/players/bulk`, { text: '7 Ada Lovelace' });
  const { groupKey } = (await me.call('POST', `/teams/${teamKey}/groups`, {
    groupName: 'First half',
  })) as { groupKey: string };
  const sheet = (await me.call('GET', `/teams/${teamKey}`)) as { roster: { key: string }[] };
  const playerKey = sheet.roster[0]!.key;
  const { publishedAsKey } = (await me.call('POST', `/teams/${teamKey}/publish`)) as {
    publishedAsKey: string;
  };
  const pcKey = `csp${Math.random().toString(36).slice(2, 10)}`;
  await me.call('PUT', `/playcounts/${pcKey}`, {
    gameName: 'Lions v Bears',
    gameDate: '2025-05-04',
    roster: [{ key: 'p1', jersey: '7', playerName: 'Ada Lovelace', playCount: 2, location: 1 }],
    snaps: [{ snapCount: 1, groupName: 'O', quarter: 1, p1: true }],
  });

  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const consoleCsp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleCsp.push(m.text());
  });

  const screens: [string, string | RegExp][] = [
    ['/', 'Current Games'],
    ['/login', 'Login'],
    ['/scoreboards', 'My Games'],
    [`/taggedscoreboards/${tags[0]!.key}`, `Scoreboards Tagged #${tag}`],
    [`/viewscoreboard/${gameKey}`, 'Comments'],
    [`/viewscoreboardmini/${gameKey}`, 'CSP cup'],
    ['/teamsheets', 'My Teams'],
    [`/teamsheets/${publishedAsKey}`, 'New Team'],
    [`/teamsheets/${publishedAsKey}/${playerKey}`, /Ada Lovelace/],
    [`/teamsheetedit/${teamKey}`, 'Roster'],
    [`/teamsheetgroupedit/${teamKey}/${groupKey}`, 'First half'],
    [`/teamsheetbulk/${teamKey}`, 'Bulk Upload'],
    [`/teamsheetedit/${teamKey}/${playerKey}`, 'Edit Player'],
    ['/playcounts', 'Play Counts'],
    [`/playcount/${pcKey}`, 'Lions v Bears'],
    ['/no-such-page', /not found/i],
  ];
  const reports: string[] = [];
  for (const [path, ready] of screens) {
    await page.goto(`${BASE}${path}`);
    await expect(page.getByText(ready).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const seen = await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    );
    for (const v of seen) reports.push(`${path}: ${v}`);
  }
  console.log(`CSP violations over ${screens.length} pages: ${reports.length}`);
  expect(reports).toEqual([]);
  expect(consoleCsp).toEqual([]);
});
