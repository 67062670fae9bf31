import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect, signIn, unique, API } from './fixtures.ts';

// A page on another port of this machine is same-site to the app (ports do not make sites),
// so the browser sends the Lax session cookie with its form posts and no-cors fetches. It tries
// the percent-encoded API paths the router decodes (`%61pi`, `%61pps`, `ap%69`): sign-out and
// publish must change nothing.

const ATTACKS = (origin: string, teamKey: string) => [
  `${origin}/apps/sagan/%61pi/teams/${teamKey}/publish`,
  `${origin}/%61pps/sagan/api/teams/${teamKey}/publish`,
  `${origin}/apps/sagan/ap%69/teams/${teamKey}/publish`,
  `${origin}/apps/sagan/%61pi/auth/logout`,
  `${origin}/%61pps/sagan/api/auth/logout`,
];

function attackerPage(targets: string[]): string {
  // Forms post text/plain (a body the server parses), into a frame so the page stays; fetches
  // are no-cors with credentials, the most a foreign page can send without CORS consent.
  const forms = targets
    .map(
      (t, i) =>
        `<form id="f${i}" method="POST" enctype="text/plain" action="${t}" target="sink${i}">` +
        `<input type="hidden" name="x" value="1"></form><iframe name="sink${i}"></iframe>`,
    )
    .join('\n');
  return `<!doctype html><html><body>${forms}
<script>
  const targets = ${JSON.stringify(targets)};
  window.attack = async () => {
    for (let i = 0; i < targets.length; i++) document.getElementById('f' + i).submit();
    for (const t of targets) {
      await fetch(t, { method: 'POST', credentials: 'include', mode: 'no-cors',
        headers: { 'content-type': 'text/plain' }, body: '{}' }).catch(() => undefined);
    }
  };
</script></body></html>`;
}

test('a page on another loopback port cannot sign out or publish through encoded paths', async ({
  page,
  baseURL,
  allowConsoleError,
}) => {
  allowConsoleError(
    /ERR_BLOCKED_BY_RESPONSE|frame-ancestors 'none'|X-Frame-Options' to 'sameorigin'|status of 403/,
    "the attack's own requests: refused by the server (403), by the cookie's SameSite rule, or its frames by the CSP or X-Frame-Options (a JSON answer carries no CSP)",
  );
  const origin = baseURL!;
  await signIn(page, unique('CSRF target'));
  const created = await page.request.post(`${API}/teams`, { headers: { 'x-sagan-request': '1' } });
  expect(created.status()).toBe(201);
  const { teamKey } = (await created.json()) as { teamKey: string };
  const targets = ATTACKS(origin, teamKey);

  const attacker = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(attackerPage(targets));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const attackerPort = (attacker.address() as AddressInfo).port;
  try {
    // The browser blocks the app's answers from a foreign frame (frame-ancestors) and from a
    // no-cors fetch (CORP), but they were sent and answered: a finished or blocked request is
    // a settled attack. Statuses are visible for the form posts.
    const statuses: number[] = [];
    let settled = 0;
    const ours = (r: { method(): string; url(): string }) =>
      r.method() === 'POST' && targets.includes(r.url());
    page.on('response', (r) => {
      if (ours(r.request())) statuses.push(r.status());
    });
    page.on('requestfinished', (r) => void (ours(r) && settled++));
    page.on('requestfailed', (r) => void (ours(r) && settled++));
    await page.goto(`http://127.0.0.1:${attackerPort}/`);
    await page.evaluate(() => (window as unknown as { attack(): Promise<void> }).attack());
    // Each target twice: once by form, once by fetch.
    await expect.poll(() => settled, { timeout: 15_000 }).toBe(2 * targets.length);
    console.log(
      `encoded-path CSRF from another port: ${settled} requests, form answers ${statuses.join(', ')}`,
    );
    expect(statuses).toEqual(targets.map(() => 403));
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }

  // Still signed in, and the sheet is still unpublished.
  const me = await page.request.get(`${API}/auth/me`);
  expect(me.status()).toBe(200);
  const sheet = await page.request.get(`${API}/teams/${teamKey}`);
  expect(((await sheet.json()) as { publishedAsKey: string }).publishedAsKey).toBe('');
});
