import { describe, expect, it } from 'vitest';
import type { Invite } from '@sagan/shared/coscorers';
import { BASE_PATH } from '@sagan/shared/routes';
import { API, databaseKinds, newGameOf, newTeamOf, useTestApp } from './helpers.ts';
import { qrPng } from '../src/lib/qr.ts';

// DESIGN §10 invitations: the answer that shows the token this once also carries the link to
// share and its QR code, so no request ever carries the token where a server would log it.

describe.each(databaseKinds())('an invitation link and its QR code on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Owner'] });

  it('carries the token in the fragment, in the link and in its QR code alike', async () => {
    const gameKey = await newGameOf(t.users.Owner, { gameName: 'Rockets v Comets', sportID: 2 });
    const res = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/coscorers`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const invite = res.json<Invite>();
    // The web app's /invite page on this server's address (what inject sends as the host).
    expect(invite.link).toBe(`http://localhost:80${BASE_PATH}/invite#${invite.token}`);
    // The same code as the team sheets' and scoreboards' QR codes, of exactly that link.
    const expected = (await qrPng(invite.link)).toString('base64');
    expect(invite.qr).toBe(`data:image/png;base64,${expected}`);
    // Neither the link nor the token is kept: only the token's hash.
    const stored = JSON.stringify(await t.db.query('SELECT * FROM coscorers'));
    expect(stored).not.toContain(invite.token);
  });

  it('is made for a play count too, and for its owner only', async () => {
    const teamKey = await newTeamOf(t.users.Owner);
    const count = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/playcounts`,
      payload: { teamKey, gameName: 'Sat', gameDate: '2026-09-05' },
    });
    const { gameKey } = count.json<{ gameKey: string }>();
    const res = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/playcounts/${gameKey}/coscorers`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const invite = res.json<Invite>();
    expect(invite.link).toMatch(new RegExp(`/invite#${invite.token}$`));
    expect(invite.qr).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const anon = await t.app.inject({
      method: 'POST',
      url: `${API}/playcounts/${gameKey}/coscorers`,
      headers: { 'x-sagan-request': '1' },
    });
    expect(anon.statusCode).toBe(401);
  });
});
