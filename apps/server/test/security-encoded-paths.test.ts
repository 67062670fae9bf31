import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localUid } from '../src/auth/local-uid.ts';
import { API, databaseKinds, newGameOf, useTempDir, useTestApp } from './helpers.ts';

/**
 * Percent-encoded and non-canonical paths, sent byte for byte over a real socket (inject would
 * normalize some of them): every answer is a 400 or 404, or the decoded path's own answer with
 * its checks; never a file outside the web build, never a 500 (docs/security.md "Probes").
 */
const OUTSIDE = 'outside-the-build-secret';
const SSR_SECRET = 'server-rendering-bundle-secret';
const SW = 'self.addEventListener("fetch", () => {});';
const S = '/apps/sagan';
const OP = 'Probe Operator';

interface Answer {
  status: number;
  body: string;
}

describe.each(databaseKinds())('encoded and non-canonical paths on $name', (kind) => {
  // The build folder sits beside a file it must never serve.
  const root = useTempDir('sagan-probe-', {
    'outside.txt': OUTSIDE,
    'web/index.html':
      '<!doctype html><html><head><title>Sagan</title></head><body><div id="root"></div></body></html>',
    'web/sw.js': SW,
    'web/assets/app-abc123.js': 'console.log(1);',
    'web/.ssr/secret.txt': SSR_SECRET,
    'web/.vite/manifest.json': `{"secret":"${SSR_SECRET}"}`,
  });
  const t = useTestApp(kind, () => ({
    users: ['Owner', 'Other', OP],
    listen: true,
    config: { webDist: path.join(root(), 'web'), adminUids: [localUid(OP)] },
  }));

  /** One request with its target exactly as written. */
  function raw(target: string, headers: Record<string, string> = {}, method = 'GET') {
    const { port } = new URL(t.wsUrl);
    return new Promise<Answer>((resolve, reject) => {
      const lines = [`${method} ${target} HTTP/1.1`];
      const all = { Host: `127.0.0.1:${port}`, Connection: 'close', ...headers };
      for (const [k, v] of Object.entries(all)) lines.push(`${k}: ${v}`);
      if (method !== 'GET') lines.push('Content-Type: application/json', 'Content-Length: 2');
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.write(`${lines.join('\r\n')}\r\n\r\n${method !== 'GET' ? '{}' : ''}`),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('error', reject);
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
        resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
      });
    });
  }

  it('static files: nothing outside the build or in its dot folders, only 404 or the file', async () => {
    expect((await raw(`${S}/sw.js`)).body).toContain(SW);
    // Spellings of the same file.
    expect(await raw(`${S}/%73w.js`)).toMatchObject({
      status: 200,
      body: expect.stringContaining(SW),
    });
    const probes: [string, number][] = [
      [`${S}/../outside.txt`, 404],
      [`${S}/%2e%2e/outside.txt`, 404],
      [`${S}/%2E%2E/outside.txt`, 404],
      [`${S}/..%2foutside.txt`, 404],
      [`${S}/%2e%2e%2foutside.txt`, 404],
      [`${S}/%252e%252e/outside.txt`, 404],
      [`${S}/%252e%252e%252foutside.txt`, 404],
      [`${S}/assets/..%2f..%2foutside.txt`, 404],
      [`${S}/assets/%2e%2e/%2e%2e/outside.txt`, 404],
      [`${S}/..%5coutside.txt`, 404],
      [`${S}/..\\outside.txt`, 404],
      [`${S}/%c0%ae%c0%ae/outside.txt`, 400],
      [`${S}/%e0%80%ae%e0%80%ae/outside.txt`, 400],
      [`${S}/sw.js%00`, 404],
      [`${S}/sw.js%00.html`, 404],
      [`${S}/.ssr/secret.txt`, 404],
      [`${S}/%2essr/secret.txt`, 404],
      [`${S}/%252essr/secret.txt`, 404],
      [`${S}/assets/%2e%2e/.ssr/secret.txt`, 404],
      [`${S}/./.ssr/secret.txt`, 404],
      [`${S}//.ssr/secret.txt`, 404],
      [`${S}/.vite/manifest.json`, 404],
      [`${S}/%2Evite%2Fmanifest.json`, 404],
      [`${S}/.ssr/`, 404],
      [`${S}/assets/`, 404],
      [`${S}/assets/app-abc123.js.map`, 404],
      [`${S}//sw.js`, 404],
      [`${S}/./sw.js`, 404],
      [`${S}/SW.JS`, 404],
      [`${S}/sw.js.`, 404],
      [`${S}/sw.js/`, 404],
      [`${S}/scoregame/%2e%2e/sw.js`, 404],
      [`/apps/sagan%2fsw.js`, 404],
      // Control characters never reach a route, nor the operator's terminal through the log.
      [`${S}/\u001b[31mred\u0007`, 400],
    ];
    for (const [target, status] of probes) {
      const answer = await raw(target);
      expect(answer.status, target).toBe(status);
      expect(answer.body, target).not.toContain(OUTSIDE);
      expect(answer.body, target).not.toContain(SSR_SECRET);
      expect(answer.body, target).not.toContain(SW);
    }
  });

  it('API guards judge the route the router matched, however its path is spelt', async () => {
    const { Owner, Other } = t.users;
    const teamKey = (await Owner.request({ method: 'POST', url: `${API}/teams` })).json<{
      teamKey: string;
    }>().teamKey;
    const gameKey = await newGameOf(Owner);
    const cookie = (who: { cookie: string }) => ({ cookie: who.cookie });
    // Another owner's sheet: the owner guard answers every spelling alike.
    expect((await raw(`${API}/teams/${teamKey}`, cookie(Owner))).status).toBe(200);
    for (const target of [
      `${API}/teams/${teamKey}`,
      `${API}/%74eams/${teamKey}`,
      `${S}/%61pi/teams/${teamKey}`,
    ]) {
      expect((await raw(target, cookie(Other))).status, target).toBe(404);
    }
    for (const target of [`${API}/teams/${teamKey}%2F`, `${API}/teams/${teamKey}.`]) {
      expect((await raw(target, cookie(Other))).status, target).toBe(400);
    }
    for (const target of [`${API}//teams/${teamKey}`, `${API}/./teams/${teamKey}`]) {
      expect((await raw(target, cookie(Owner))).status, target).toBe(404);
    }
    // A key with a path in it is a malformed key, not a way to another route.
    for (const target of [
      `${API}/games/${gameKey}%2F..%2Fx`,
      `${API}/games/${gameKey}%00`,
      `${API}/teams/${teamKey}/players/..%2f..%2fsagan.lock/photo`,
    ]) {
      expect((await raw(target, cookie(Owner))).status, target).toBe(400);
    }
    // The CSRF header and the origin check hold on every spelling of a write.
    for (const target of [
      `${API}/games`,
      `${API}/%67ames`,
      `${S}/%61pi/games`,
      `/apps/%73agan/api/games`,
      `${S}//api/games`,
    ]) {
      const noHeader = await raw(target, cookie(Owner), 'POST');
      expect(noHeader.status, target).toBe(403);
      expect(noHeader.body, target).toMatch(/X-Sagan-Request/);
      const crossSite = await raw(
        target,
        { ...cookie(Owner), 'X-Sagan-Request': '1', Origin: 'http://evil.example' },
        'POST',
      );
      expect(crossSite.status, target).toBe(403);
    }
    // Nobody signed in: refused before the body, on any spelling.
    expect((await raw(`${S}/%61pi/games`, { 'X-Sagan-Request': '1' }, 'POST')).status).toBe(401);
    // The socket's origin check holds on a spelt-out path too.
    const upgrade = {
      Upgrade: 'websocket',
      Connection: 'Upgrade',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version': '13',
      Origin: 'http://evil.example',
    };
    for (const target of [`${S}/ws`, `${S}/%77s`]) {
      const answer = await raw(target, { ...cookie(Owner), ...upgrade });
      expect(answer.status, target).toBe(403);
      expect(answer.body, target).toMatch(/Cross-origin WebSocket refused/);
    }
    // Operators' API: no spelling reaches it for anyone else.
    for (const target of [`${API}/admin/reports`, `${API}/%61dmin/reports`]) {
      expect((await raw(target, cookie(Other))).status, target).toBe(404);
    }
  });

  it('a target in absolute form is served only for the host the Host header names', async () => {
    const { Owner } = t.users;
    const own = `http://127.0.0.1:${new URL(t.wsUrl).port}`;
    const gameKey = await newGameOf(Owner);
    for (const other of ['http://evil.example', 'http://user@127.0.0.1', 'https://localhost']) {
      for (const [target, method] of [
        [`${other}${API}/games/${gameKey}`, 'GET'],
        [`${other}${S}/privacy`, 'GET'],
        [`${other}${API}/games`, 'POST'],
      ] as const) {
        const answer = await raw(target, { cookie: Owner.cookie, 'X-Sagan-Request': '1' }, method);
        expect(answer.status, `${method} ${target}`).toBe(400);
      }
    }
    // The same host: the same answers as the path alone, pages included.
    expect((await raw(`${own}${API}/games/${gameKey}`)).status).toBe(200);
    const page = await raw(`${own}${S}/privacy`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root"');
  });

  it("the operators' screen is not found for anyone else, with or without its trailing slash", async () => {
    const { Other } = t.users;
    const op = t.users[OP];
    for (const target of [`${S}/admin`, `${S}/admin/`, `${S}/%61dmin`]) {
      expect((await raw(target, { cookie: Other.cookie })).status, target).toBe(404);
      expect((await raw(target)).status, target).toBe(404);
    }
    expect((await raw(`${S}/admin`, { cookie: op.cookie })).status).toBe(200);
    expect((await raw(`${S}/admin/`, { cookie: op.cookie })).status).toBe(200);
  });
});
