import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITES_PER_MINUTE, type WriteKind } from '../src/lib/write-limits.ts';
import { escapeHtml } from '../src/share-preview.ts';
import { googleStandIn } from './google-stand-in.ts';
import {
  API,
  buildTestApp,
  databaseKinds,
  expectRateLimited,
  newTeamWithPlayer,
  signInLocal,
  type TestUser,
  useTempDir,
  useTestApp,
} from './helpers.ts';
import { newGameKey, sampleGame } from './playcounts-fixtures.ts';
import { tinyPng } from './security-world.ts';

// The lesser holes an outside attack found: share-preview injection, image bodies where no
// image belongs, unbounded writes, and the scorekeeper seeing senders' account ids.

const INDEX =
  '<!doctype html><html><head><title>Sagan</title></head><body><div id="root"></div></body></html>';
/** Every replacement pattern String.replace knows, typed into a name. */
const PATTERNS = "Lions $` $& $' $$ $1";

const count = (text: string, part: string) => text.split(part).length - 1;
const metaOf = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];

describe.each(databaseKinds())('lesser security holes on $name', (kind) => {
  const webDist = useTempDir('sagan-web-', { 'index.html': INDEX });
  const t = useTestApp(kind, () => ({
    users: ['Owner'],
    config: { webDist: webDist(), publicUrl: 'https://scores.example' },
  }));

  const newGame = async (who: TestUser, payload: Record<string, unknown> = {}) =>
    (await who.request({ method: 'POST', url: `${API}/games`, payload })).json<{
      gameKey: string;
    }>().gameKey;
  const newTeam = async (who: TestUser) =>
    (await who.request({ method: 'POST', url: `${API}/teams` })).json<{ teamKey: string }>()
      .teamKey;

  describe('share previews take names literally', () => {
    it('a scoreboard whose team name holds replacement patterns: one doctype, name as typed', async () => {
      const gameKey = await newGame(t.users.Owner, {
        homeTeamName: PATTERNS,
        awayTeamName: 'Tigers',
      });
      const res = await t.app.inject({ url: `/apps/sagan/viewscoreboard/${gameKey}` });
      expect(res.statusCode).toBe(200);
      // Replacement strings copied the page's head once per "$`" (2 doctypes) and "</head>" once
      // per "$&" (3 with the escaped quote and ampersand, which read "$&#39;" and "$&#38;").
      expect(count(res.body, '<!doctype html>')).toBe(1);
      expect(count(res.body, '</head>')).toBe(1);
      expect(metaOf(res.body, 'og:title')).toBe(escapeHtml(`${PATTERNS} 0 – 0 Tigers`));
      expect(res.body).toContain(
        `<title>${escapeHtml(`${PATTERNS} 0 – 0 Tigers`)} · Sagan</title>`,
      );
    });

    it('a published team sheet whose name holds replacement patterns', async () => {
      const teamKey = await newTeam(t.users.Owner);
      await t.users.Owner.request({
        method: 'PATCH',
        url: `${API}/teams/${teamKey}`,
        payload: { teamName: PATTERNS, teamNotes: "Notes $` $'" },
      });
      const { publishedAsKey } = (
        await t.users.Owner.request({
          method: 'POST',
          url: `${API}/teams/${teamKey}/publish`,
        })
      ).json<{ publishedAsKey: string }>();
      const res = await t.app.inject({ url: `/apps/sagan/teamsheets/${publishedAsKey}` });
      expect(count(res.body, '<!doctype html>')).toBe(1);
      expect(count(res.body, '<head>')).toBe(1);
      expect(metaOf(res.body, 'og:title')).toBe(escapeHtml(PATTERNS));
      expect(metaOf(res.body, 'og:description')).toBe(escapeHtml("Notes $` $'"));
    });
  });

  describe('image bodies only where a photo goes', () => {
    it('every other team sheet write answers 415 to an image body and changes nothing', async () => {
      const png = await tinyPng();
      const teamKey = await newTeam(t.users.Owner);
      const sendImage = (method: InjectOptions['method'], url: string) =>
        t.users.Owner.request({
          method,
          url,
          headers: { 'content-type': 'image/png' },
          payload: png,
        });
      const before = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM teams WHERE uid = $1',
        [t.users.Owner.uid],
      );
      const refused = [
        await sendImage('POST', `${API}/teams`),
        await sendImage('PATCH', `${API}/teams/${teamKey}`),
        await sendImage('PUT', `${API}/teams/${teamKey}/players/-1`),
        await sendImage('POST', `${API}/teams/${teamKey}/players/bulk`),
        await sendImage('POST', `${API}/teams/${teamKey}/groups`),
        await sendImage('PUT', `${API}/teams/${teamKey}/privacy`),
        await sendImage('POST', `${API}/teams/${teamKey}/publish`),
        // Outside the team sheets too (no parser there: Fastify's own 415).
        await sendImage('POST', `${API}/games`),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual(refused.map(() => 415));
      for (const r of refused) expect(r.json<{ error: string }>().error).toBeTruthy();
      const after = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM teams WHERE uid = $1',
        [t.users.Owner.uid],
      );
      expect(after).toEqual(before);
      const published = await t.db.query<{ published_as_key: string | null }>(
        'SELECT published_as_key FROM teams WHERE team_key = $1',
        [teamKey],
      );
      expect(published[0]?.published_as_key ?? null).toBeNull();
    });

    it('the photo route still takes the image', async () => {
      const { uploadPhoto } = await newTeamWithPlayer(t.users.Owner);
      expect((await uploadPhoto(await tinyPng())).statusCode).toBe(200);
    });
  });

  describe('the scorekeeper sees who wrote by name, never their account id', () => {
    it('messages carry the display name and no uid', async () => {
      const gameKey = await newGame(t.users.Owner);
      const fan = await signInLocal(t.app, 'Avid Fan');
      await fan.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/scorekeeper-message`,
        payload: { scoreKeeperMessage: 'Halftime score please' },
      });
      const res = await t.users.Owner.request({
        url: `${API}/games/${gameKey}/messages`,
      });
      expect(res.statusCode).toBe(200);
      const { messages } = res.json<{ messages: Record<string, unknown>[] }>();
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ fromName: 'Avid Fan', message: 'Halftime score please' });
      expect(Object.keys(messages[0]!).sort()).toEqual([
        'createdAt',
        'fromName',
        'id',
        'message',
        'read',
      ]);
      expect(res.body).not.toContain(fan.uid);
    });
  });

  describe('write limits', () => {
    // Small limits so the test is quick: every limit × 0.05, at least 1.
    const FACTOR = 0.05;
    const max = (kind: WriteKind) => Math.ceil(WRITES_PER_MINUTE[kind] * FACTOR);
    let limited: FastifyInstance;
    let google: Awaited<ReturnType<typeof googleStandIn>>;

    beforeAll(async () => {
      google = await googleStandIn();
      limited = await buildTestApp(t.db, {
        rateLimitFactor: FACTOR,
        google: google.google,
        localSignIn: true,
        publicUrl: 'https://scores.example',
      });
    });
    afterAll(async () => {
      await limited.close();
      google.close();
    });

    /** A writer on another machine: it reaches the server by its public name, not by loopback. */
    const fromAfar = (opts: InjectOptions) =>
      limited.inject({ ...opts, headers: { host: 'scores.example', ...opts.headers } });

    /** The same signed-in person (session made on the roomy app) writing to the limited one. */
    const viaLimited =
      (who: TestUser, remoteAddress = '203.0.113.1') =>
      (opts: InjectOptions) =>
        fromAfar({
          remoteAddress,
          ...opts,
          headers: { 'x-sagan-request': '1', cookie: who.cookie, ...(opts.headers ?? {}) },
        });

    /** `allowed` writes pass, the next one is refused with Retry-After. */
    async function expectLimitAt(
      allowed: number,
      write: (i: number) => Promise<LightMyRequestResponse>,
    ) {
      for (let i = 0; i < allowed; i++) {
        const res = await write(i);
        expect(res.statusCode, `write ${i + 1} of ${allowed}: ${res.body}`).toBeLessThan(300);
      }
      expectRateLimited(await write(allowed));
    }

    it('the limits as shipped, per minute', () => {
      expect(WRITES_PER_MINUTE).toMatchObject({
        score: 600,
        clock: 1200,
        create: 60,
        comment: 300,
        tags: 120,
        edit: 600,
      });
    });

    it('scoring a game: score updates, clock, comments and tags each have their limit', async () => {
      const keeper = await signInLocal(t.app, 'Busy Keeper');
      const gameKey = await newGame(keeper);
      const write = viaLimited(keeper);
      await expectLimitAt(max('score'), (i) =>
        write({ method: 'PATCH', url: `${API}/games/${gameKey}`, payload: { homeScore: i + 1 } }),
      );
      await expectLimitAt(max('clock'), (i) =>
        write({
          method: 'POST',
          url: `${API}/games/${gameKey}/clock`,
          payload: { formattedTime: `0:${String(i % 60).padStart(2, '0')}`, seconds: i },
        }),
      );
      await expectLimitAt(max('comment'), (i) =>
        write({
          method: 'POST',
          url: `${API}/games/${gameKey}/comments`,
          payload: { gameComment: `Play ${i}` },
        }),
      );
      await expectLimitAt(max('tags'), (i) =>
        write({ method: 'PUT', url: `${API}/games/${gameKey}/tags`, payload: { tags: [`t${i}`] } }),
      );
      // The refused score update changed nothing.
      const [game] = await t.db.query<{ fields: { homeScore?: number } }>(
        'SELECT fields FROM games WHERE game_key = $1',
        [gameKey],
      );
      expect(game?.fields.homeScore).toBe(max('score'));
    });

    it('new games, new teams and bulk uploads: the creation limit', async () => {
      const maker = await signInLocal(t.app, 'Maker');
      const write = viaLimited(maker);
      await expectLimitAt(max('create'), () =>
        write({ method: 'POST', url: `${API}/games`, payload: {} }),
      );
      await expectLimitAt(max('create'), () => write({ method: 'POST', url: `${API}/teams` }));
      const teamKey = await newTeam(maker);
      await expectLimitAt(max('create'), (i) =>
        write({
          method: 'POST',
          url: `${API}/teams/${teamKey}/players/bulk`,
          payload: { text: `${i} Player ${i}` },
        }),
      );
    });

    it('team, player and group edits, and Player Counter saves', async () => {
      const coach = await signInLocal(t.app, 'Editing Coach');
      const teamKey = await newTeam(coach);
      const write = viaLimited(coach);
      await expectLimitAt(max('edit'), (i) =>
        write({
          method: 'PATCH',
          url: `${API}/teams/${teamKey}`,
          payload: { teamName: `T${i}`, teamNotes: '' },
        }),
      );
      await expectLimitAt(max('edit'), (i) =>
        write({
          method: 'PUT',
          url: `${API}/teams/${teamKey}/players/-1`,
          payload: { jersey: String(i), playerName: `P${i}`, playerNotes: '' },
        }),
      );
      await expectLimitAt(max('edit'), (i) =>
        write({
          method: 'POST',
          url: `${API}/teams/${teamKey}/groups`,
          payload: { groupName: `G${i}` },
        }),
      );
      const gameKey = newGameKey();
      await expectLimitAt(max('score'), () =>
        write({ method: 'PUT', url: `${API}/playcounts/${gameKey}`, payload: sampleGame() }),
      );
    });

    it('counted per signed-in user: a neighbour on the same address still writes', async () => {
      const first = await signInLocal(t.app, 'First Keeper');
      const second = await signInLocal(t.app, 'Second Keeper');
      const [a, b] = [await newGame(first), await newGame(second)];
      const score = (who: TestUser, gameKey: string, address: string) =>
        viaLimited(
          who,
          address,
        )({
          method: 'PATCH',
          url: `${API}/games/${gameKey}`,
          payload: { awayScore: 1 },
        });
      await expectLimitAt(max('score'), () => score(first, a, '198.51.100.20'));
      // Another address does not reset the person's budget.
      expectRateLimited(await score(first, a, '198.51.100.21'));
      expect((await score(second, b, '198.51.100.20')).statusCode).toBe(200);
    });

    it('Bearer callers (the phone apps) are limited per Google account', async () => {
      const phone = async (sub: string, opts: InjectOptions) =>
        fromAfar({
          remoteAddress: '198.51.100.30',
          ...opts,
          headers: { authorization: `Bearer ${await google.token(sub)}` },
        });
      const gameKey = (
        await phone('phone-a', { method: 'POST', url: `${API}/games`, payload: {} })
      ).json<{ gameKey: string }>().gameKey;
      await expectLimitAt(max('clock'), (i) =>
        phone('phone-a', {
          method: 'POST',
          url: `${API}/games/${gameKey}/clock`,
          payload: { formattedTime: '1:00', seconds: i },
        }),
      );
      // The same account signed in on the web shares the budget; another account does not.
      const web = await fromAfar({
        method: 'POST',
        url: `${API}/auth/google`,
        remoteAddress: '198.51.100.31',
        headers: { 'x-sagan-request': '1' },
        payload: { credential: await google.token('phone-a') },
      });
      expect(web.statusCode).toBe(200);
      const cookie = web.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      expectRateLimited(
        await fromAfar({
          method: 'POST',
          url: `${API}/games/${gameKey}/clock`,
          remoteAddress: '198.51.100.31',
          headers: { 'x-sagan-request': '1', cookie },
          payload: { formattedTime: '1:00', seconds: 1 },
        }),
      );
      const other = (
        await phone('phone-b', { method: 'POST', url: `${API}/games`, payload: {} })
      ).json<{ gameKey: string }>().gameKey;
      expect(
        (
          await phone('phone-b', {
            method: 'POST',
            url: `${API}/games/${other}/clock`,
            payload: { formattedTime: '1:00', seconds: 60 },
          })
        ).statusCode,
      ).toBe(200);
    });

    it('anonymous writers are counted per address', async () => {
      const anon = (address: string) =>
        fromAfar({
          method: 'PUT',
          url: `${API}/games/nope/tags`,
          remoteAddress: address,
          headers: { 'x-sagan-request': '1' },
          payload: { tags: ['x'] },
        });
      for (let i = 0; i < max('tags'); i++) expect((await anon('192.0.2.50')).statusCode).toBe(401);
      expectRateLimited(await anon('192.0.2.50'));
      expect((await anon('192.0.2.51')).statusCode).toBe(401);
    });
  });

  it('as shipped (factor 1): the 61st new game in a minute is refused with Retry-After', async () => {
    const shipped = await buildTestApp(t.db, { rateLimitFactor: 1 });
    try {
      const maker = await signInLocal(t.app, 'Sixty Games');
      const write = () =>
        shipped.inject({
          method: 'POST',
          url: `${API}/games`,
          headers: { 'x-sagan-request': '1', cookie: maker.cookie },
          payload: {},
        });
      for (let i = 0; i < 60; i++) expect((await write()).statusCode).toBe(200);
      expectRateLimited(await write());
      const [row] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM games WHERE uid = $1',
        [maker.uid],
      );
      expect(row?.n).toBe(60);
    } finally {
      await shipped.close();
    }
  });
});
