import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bulkRowsToSave, parseBulkUpload } from '@sagan/shared/bulk-upload';
import { DELETE_ACCOUNT_CONFIRMATION } from '@sagan/shared/account';
import { BACKUP_TOKEN_HEADER } from '../src/routes/ops/backup.ts';
import { API, databaseKinds, useTempDir, useTestApp } from './helpers.ts';
import { makeWorld, randomKey, tableVersions, type World } from './security-world.ts';

/**
 * Property-based fuzzing of every JSON endpoint. Each case is sent as the owner
 * (so it reaches validation and the handler, not just the sign-in check) and must answer
 * below 500; a refused case must leave every table as it was; the server must still answer
 * afterwards. RUNS cases per endpoint and database; the figures are printed at the end.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

/** Strings that break naive code: control and bidi characters, lone surrogates, huge ones. */
const nastyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff',
    '\u202e\u0066\u0064\u0070',
    '\ufeff',
    '𝕊𝕒𝕘𝕒𝕟',
    '👩‍👩‍👧‍👦',
    "'; DROP TABLE games; --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '-1',
    'NaN',
    '1e400',
    '__proto__',
  ),
  fc.integer({ min: 1000, max: 120_000 }).map((n) => 'x'.repeat(n)),
);
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 31), 1e308, -0, 0.5),
);
const leaf = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null));
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, leaf, { maxKeys: 4 }) },
);

/** Nesting far deeper than any real body. */
const deep = fc.integer({ min: 50, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
/** Prototype pollution attempts, as raw JSON (an object literal would not keep __proto__). */
const pollution = fc
  .constantFrom('__proto__', 'constructor', 'prototype')
  .chain((k) =>
    fc.constantFrom(
      `{"${k}":{"polluted":true,"isAdmin":true}}`,
      `{"${k}":{"prototype":{"polluted":true}},"gameName":"x"}`,
      `{"text":"1 Ann","${k}":{"polluted":true}}`,
    ),
  );

/** A body from one endpoint's valid example with fields dropped, retyped or added. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  return fc
    .record({
      drop: fc.subarray(keys),
      retype: fc.dictionary(fc.constantFrom(...(keys.length ? keys : ['x'])), nastyValue, {
        maxKeys: 3,
      }),
      extra: fc.dictionary(nastyString, nastyValue, { maxKeys: 2 }),
    })
    .map(({ drop, retype, extra }) => {
      const body: Record<string, unknown> = { ...valid };
      for (const k of drop) delete body[k];
      return JSON.stringify({ ...body, ...retype, ...extra });
    });
}

function bodies(valid: Record<string, unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: mutated(valid) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: pollution },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }, // not JSON at all
  );
}

interface Target {
  method: 'POST' | 'PUT' | 'PATCH';
  url(w: World): string;
  valid: Record<string, unknown>;
  /** Bodies other than bodies(valid), for a target whose body nests what matters. */
  bodies?: fc.Arbitrary<string>;
  headers?: fc.Arbitrary<Record<string, string>>;
}

/** Every kind of game event, each valid, for the fuzzer to mutate. */
const gameActions = [
  { kind: 'score', team: 'home', by: 2 },
  { kind: 'goal', team: 'away', by: 1 },
  { kind: 'count', field: 'homeFouls', by: 1 },
  { kind: 'toggle', field: 'base1' },
  { kind: 'tennisPoint', team: 'home' },
  { kind: 'setWon', team: 'away' },
  { kind: 'pitch', call: 'ball' },
  { kind: 'period', step: 1 },
  { kind: 'undo' },
  { kind: 'void', target: 'nosuchevent' },
];

const targets: Record<string, Target> = {
  'auth/local': { method: 'POST', url: () => '/auth/local', valid: { displayName: 'Ann' } },
  'auth/google': { method: 'POST', url: () => '/auth/google', valid: { credential: 'x' } },
  'POST games': { method: 'POST', url: () => '/games', valid: { gameName: 'G', homeScore: 1 } },
  'PATCH game': {
    method: 'PATCH',
    url: (w) => `/games/${w.gameKey}`,
    valid: { homeScore: 2, gamePeriod: 'Q1', base1: true, homeScorePointsTennis: '15' },
  },
  clock: {
    method: 'POST',
    url: (w) => `/games/${w.gameKey}/clock`,
    valid: { formattedTime: '1:00', seconds: 60 },
  },
  comments: {
    method: 'POST',
    url: (w) => `/games/${w.gameKey}/comments`,
    valid: { gameComment: 'Goal', homeScore: 1, imageURL: 'https://example.com/a.jpg' },
  },
  tags: { method: 'PUT', url: (w) => `/games/${w.gameKey}/tags`, valid: { tags: ['a', 'b'] } },
  'scorekeeper-message': {
    method: 'POST',
    url: (w) => `/games/${w.gameKey}/scorekeeper-message`,
    valid: { scoreKeeperMessage: 'Hi' },
  },
  'PATCH team': {
    method: 'PATCH',
    url: (w) => `/teams/${w.teamKey}`,
    valid: { teamName: 'T', teamNotes: 'n' },
  },
  'PUT player': {
    method: 'PUT',
    url: (w) => `/teams/${w.teamKey}/players/${w.playerKey}`,
    valid: { jersey: '7', playerName: 'Ann', playerNotes: '' },
  },
  bulk: {
    method: 'POST',
    url: (w) => `/teams/${w.teamKey}/players/bulk`,
    valid: { text: '1 Ann\n2 Bo' },
  },
  'photo (data URL)': {
    method: 'PUT',
    url: (w) => `/teams/${w.teamKey}/players/${w.playerKey}/photo`,
    valid: { dataUrl: 'data:image/png;base64,iVBORw0KGgo=' },
  },
  'POST group': {
    method: 'POST',
    url: (w) => `/teams/${w.teamKey}/groups`,
    valid: { groupName: 'G' },
  },
  'PATCH group': {
    method: 'PATCH',
    url: (w) => `/teams/${w.teamKey}/groups/${w.groupKey}`,
    valid: { groupName: 'G2' },
  },
  member: {
    method: 'PUT',
    url: (w) => `/teams/${w.teamKey}/groups/${w.groupKey}/members/${w.playerKey}`,
    valid: { location: 1 },
  },
  'PUT playcount': {
    method: 'PUT',
    url: (w) => `/playcounts/${w.playCountKey}`,
    valid: {
      gameName: 'G',
      gameDate: '2025-01-01',
      roster: [{ key: 'p1', jersey: '1', playerName: 'A', playCount: 1, location: 1 }],
      snaps: [{ snapCount: 1, groupName: 'O', quarter: 1, p1: true }],
    },
  },
  privacy: {
    method: 'PUT',
    url: (w) => `/teams/${w.teamKey}/privacy`,
    valid: { initialsOnly: true, hidePhotos: false },
  },
  'PATCH playcount': {
    method: 'PATCH',
    url: (w) => `/playcounts/${w.playCountKey}`,
    valid: { archived: true, minPlays: 2 },
  },
  'game event': {
    method: 'POST',
    url: (w) => `/games/${w.gameKey}/events`,
    valid: { action: gameActions[0], device: 'fuzz-device', baseSeq: 1, period: 'Q1' },
  },
  'game event action': {
    method: 'POST',
    url: (w) => `/games/${w.gameKey}/events`,
    valid: {},
    bodies: fc
      .constantFrom(...gameActions)
      .chain((action) => mutated(action))
      .map((action) => `{"action":${action},"device":"fuzz-device"}`),
  },
  'delete my account': {
    method: 'POST',
    url: () => '/me/delete',
    valid: { confirm: DELETE_ACCOUNT_CONFIRMATION },
  },
  // The backup command's route: without the data folder's token, 404 whatever is sent.
  backup: {
    method: 'POST',
    url: () => '/ops/backup',
    valid: {},
    headers: fc.oneof(
      fc.constant({}),
      fc.stringMatching(/^[\x20-\x7e]{0,300}$/).map((token) => ({ [BACKUP_TOKEN_HEADER]: token })),
    ),
  },
};

describe.each(databaseKinds())('fuzzing on $name', (kind) => {
  const dataDir = useTempDir('sagan-fuzz-');
  let w: World;
  const versions = () => tableVersions(server.db);
  let cases = 0;
  let parserCases = 0;
  /** The tables' versions after the last case: one query per case instead of two. */
  let known: string | null = null;
  const started = Date.now();

  // Not `t`: the cases below name their target so.
  const server = useTestApp(kind, () => ({ config: { dataDir: dataDir() } }));
  beforeAll(async () => {
    w = await makeWorld(server.app);
  });

  it.each(Object.keys(targets))('%s: never 5xx, refusals change nothing', async (name) => {
    const t = targets[name]!;
    await fc.assert(
      fc.asyncProperty(
        t.bodies ?? bodies(t.valid),
        t.headers ?? fc.constant({}),
        async (payload, headers) => {
          const before = known ?? (await versions());
          const res = await w.owner.request({
            method: t.method,
            url: `${API}${t.url(w)}`,
            headers: { 'content-type': 'application/json', ...headers },
            payload,
          });
          cases++;
          expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
          known = await versions();
          if (res.statusCode >= 400) expect(known).toBe(before);
          // Never served without the data folder's token (404; a body it cannot read, 400/413).
          if (name === 'backup') expect(res.statusCode).toBeGreaterThanOrEqual(400);
          // A sign-in from the fuzzer replaces the owner's session, and a deletion ends the
          // owner: a new world either way.
          if ((name === 'auth/local' || name === 'delete my account') && res.statusCode === 200) {
            w = await makeWorld(server.app);
            known = null;
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keys in the URL: never 5xx, refusals change nothing', async () => {
    const segment = fc.oneof(
      nastyString.filter((s) => s.length < 2000),
      fc.constant(randomKey()),
    );
    const routes = [
      (k: string) => ({ method: 'GET' as const, url: `/games/${k}` }),
      (k: string) => ({ method: 'GET' as const, url: `/tags/${k}` }),
      (k: string) => ({ method: 'GET' as const, url: `/rosters/${k}` }),
      (k: string) => ({ method: 'GET' as const, url: `/rosters/${k}/players/${k}/photo` }),
      (k: string) => ({ method: 'GET' as const, url: `/teams/${w.teamKey}/players/${k}/photo` }),
      (k: string) => ({ method: 'GET' as const, url: `/playcounts/${k}/players/${k}/photo` }),
      (k: string) => ({ method: 'GET' as const, url: `/playcounts/${k}` }),
      (k: string) => ({ method: 'GET' as const, url: `/teams/${k}` }),
      (k: string) => ({ method: 'PUT' as const, url: `/me/favorite-scoreboards/${k}` }),
      (k: string) => ({ method: 'DELETE' as const, url: `/me/followed-tags/${k}` }),
      (k: string) => ({ method: 'DELETE' as const, url: `/teams/${w.teamKey}/players/${k}` }),
      (k: string) => ({ method: 'POST' as const, url: `/teams/${k}/publish` }),
    ];
    await fc.assert(
      fc.asyncProperty(fc.nat(routes.length - 1), segment, async (i, raw) => {
        const { method, url } = routes[i]!(
          encodeURIComponent(raw.replace(/[\ud800-\udfff]/g, '\ufffd')),
        );
        const before = known ?? (await versions());
        const res = await w.owner.request({ method, url: `${API}${url}` });
        cases++;
        expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        known = await versions();
        if (res.statusCode >= 400) expect(known).toBe(before);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('the bulk parser takes any text without throwing, and keeps its promises', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 400 }),
          fc
            .array(fc.tuple(fc.nat(200), nastyString), { maxLength: 30 })
            .map((rows) =>
              rows
                .map(([j, n]) => `${j} ${n.slice(0, 100)}`)
                .join(fc.sample(fc.constantFrom('\n', '\r\n', '\r'), 1)[0]),
            ),
        ),
        (text) => {
          parserCases++;
          const rows = parseBulkUpload(text);
          const result = bulkRowsToSave(rows);
          if (result.ok) {
            for (const row of result.rows) {
              expect(row.jersey.trim()).not.toBe('');
              expect(row.playerName.trim()).not.toBe('');
            }
          } else {
            expect(result.line).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: RUNS * 30 },
    );
  });

  it('still answers afterwards, and nothing was polluted', async () => {
    const res = await server.app.inject({ method: 'GET', url: `${API}/health` });
    expect(res.statusCode).toBe(200);
    // The owner's data, full of what the fuzzer managed to store, still downloads whole.
    const data = await w.owner.request({ method: 'GET', url: `${API}/me/data` });
    expect(data.statusCode, data.body.slice(0, 300)).toBe(200);
    expect(data.json()).toMatchObject({ teams: expect.any(Array) });
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('isAdmin');
    console.log(
      `fuzz (${kind.name}): ${cases} HTTP cases + ${parserCases} bulk-parser cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
        '0 responses 5xx, 0 rows changed by refused requests',
    );
  });
});
