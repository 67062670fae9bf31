import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { API_PATH, errorSchema } from '@sagan/shared/http';
import { operationIdFor, swaggerOptions } from '../src/openapi.ts';
import { databaseKinds, testConfig, useTestApp } from './helpers.ts';

/**
 * The served OpenAPI document is usable by the people who write clients: types generated from
 * it with openapi-typescript type-check a scorekeeping round trip written against them with
 * openapi-fetch (and refuse a wrong field), and that same round trip then runs against the real
 * server. Generated files live in .tmp/, never in the repository.
 */
const outDir = path.resolve(import.meta.dirname, '../../../.tmp/openapi-client');

// Written against the generated `paths` only: every URL, body and answer below is checked by
// the compiler against the document, so a route whose schema the document lost fails here.
const ROUND_TRIP = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

type Client = ReturnType<typeof createClient<paths>>;

export async function roundTrip(baseUrl: string) {
  const anonymous: Client = createClient<paths>({ baseUrl });
  const signIn = await anonymous.POST('/apps/sagan/api/auth/local', {
    headers: { 'x-sagan-request': '1' },
    body: { displayName: 'Client Author' },
  });
  if (!signIn.data) throw new Error('sign-in failed');
  const cookie = (signIn.response.headers.get('set-cookie') ?? '').split(';')[0]!;
  const scorer: Client = createClient<paths>({
    baseUrl,
    headers: { cookie, 'x-sagan-request': '1' },
  });

  const created = await scorer.POST('/apps/sagan/api/games', {
    body: { gameName: 'Lions v Tigers', sportID: 2, homeTeamName: 'Lions', awayTeamName: 'Tigers' },
  });
  if (!created.data) throw new Error('create failed');
  const gameKey: string = created.data.gameKey;
  const params = { path: { gameKey } };

  const patched = await scorer.PATCH('/apps/sagan/api/games/{gameKey}', {
    params,
    body: { homeScore: 3, awayScore: 1, gamePeriod: 'Q2' },
  });
  const read = await anonymous.GET('/apps/sagan/api/games/{gameKey}', { params });
  const comment = await scorer.POST('/apps/sagan/api/games/{gameKey}/comments', {
    params,
    body: { gameComment: 'What a start!' },
  });
  const tags = await scorer.PUT('/apps/sagan/api/games/{gameKey}/tags', {
    params,
    body: { tags: ['Lions', 'U10'] },
  });
  const afterTags = await anonymous.GET('/apps/sagan/api/games/{gameKey}', { params });

  const fanSignIn = await anonymous.POST('/apps/sagan/api/auth/local', {
    headers: { 'x-sagan-request': '1' },
    body: { displayName: 'Sam Fan' },
  });
  const fan: Client = createClient<paths>({
    baseUrl,
    headers: {
      cookie: (fanSignIn.response.headers.get('set-cookie') ?? '').split(';')[0]!,
      'x-sagan-request': '1',
    },
  });
  await fan.POST('/apps/sagan/api/games/{gameKey}/scorekeeper-message', {
    params,
    body: { scoreKeeperMessage: 'Halftime score please' },
  });
  const messages = await scorer.GET('/apps/sagan/api/games/{gameKey}/messages', { params });
  const fanReadsMessages = await fan.GET('/apps/sagan/api/games/{gameKey}/messages', { params });
  const anonymousPatch = await anonymous.PATCH('/apps/sagan/api/games/{gameKey}', {
    params,
    headers: { 'x-sagan-request': '1' },
    body: { homeScore: 99 },
  });

  return {
    patchedAt: patched.data?.timeStamp,
    score: read.data ? [read.data.top.homeScore, read.data.top.awayScore] : null,
    period: read.data?.top.gamePeriod,
    commentId: comment.data?.id,
    tagNames: tags.data?.tags.map((t) => t.name),
    readTags: afterTags.data?.tags.map((t) => t.name),
    readComments: afterTags.data?.comments.map((c) => c.gameComment),
    messages: messages.data?.messages.map((m) => [m.fromName, m.message]),
    fanRefused: [fanReadsMessages.response.status, fanReadsMessages.error?.error],
    anonymousRefused: [anonymousPatch.response.status, anonymousPatch.error?.error],
  };
}

export async function wrongField(client: Client) {
  // @ts-expect-error homeScore is a number in the document, so a string must not compile.
  await client.PATCH('/apps/sagan/api/games/{gameKey}', { params: { path: { gameKey: 'k' } }, body: { homeScore: 'three' } });
}
`;

interface RoundTripModule {
  roundTrip(baseUrl: string): Promise<{
    patchedAt: number | undefined;
    score: number[] | null;
    period: string | undefined;
    commentId: string | undefined;
    tagNames: string[] | undefined;
    readTags: string[] | undefined;
    readComments: string[] | undefined;
    messages: (string | null)[][] | undefined;
    fanRefused: [number, string | undefined];
    anonymousRefused: [number, string | undefined];
  }>;
}

/**
 * The type errors of round-trip.ts against a schema.d.ts, by that schema's text. Each database
 * serves the same document, so its generated types are byte for byte the same: a second
 * compile of the same two files could only repeat the first one's answer (a few seconds).
 */
const errorsBySchema = new Map<string, string[]>();

function roundTripTypeErrors(dir: string): string[] {
  const schema = fs.readFileSync(path.join(dir, 'schema.d.ts'), 'utf8');
  const known = errorsBySchema.get(schema);
  if (known) return known;
  const errors = typeErrors([path.join(dir, 'round-trip.ts')]);
  errorsBySchema.set(schema, errors);
  return errors;
}

function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('what the document asks of a route', () => {
  async function documentOf(routes: { url: string; schema: Record<string, unknown> }[]) {
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(serializerCompiler);
    await app.register(swagger, swaggerOptions(testConfig(), 'sagan_session'));
    for (const { url, schema } of routes) {
      app.get(`${API_PATH}${url}`, { schema }, async () => ({}));
    }
    await app.ready();
    try {
      return () => app.swagger();
    } finally {
      await app.close();
    }
  }

  it('derives operation ids from method and path', () => {
    expect(operationIdFor('GET', '/games/:gameKey')).toBe('getGamesByGameKey');
    expect(operationIdFor('POST', '/games/:gameKey/scorekeeper-message')).toBe(
      'postGamesScorekeeperMessage',
    );
    expect(operationIdFor('GET', '/rosters/:publishedAsKey/qr.png')).toBe('getRostersQrPng');
  });

  it('refuses an unknown tag, a missing summary and a shared operation id', async () => {
    const ok = { tags: ['ops'], summary: 'Something' };
    expect(await documentOf([{ url: '/a', schema: ok }])).not.toThrow();
    expect(await documentOf([{ url: '/a', schema: { ...ok, tags: ['misc'] } }])).toThrow(
      /GET \/apps\/sagan\/api\/a: tags must be among/,
    );
    expect(await documentOf([{ url: '/a', schema: { tags: ['ops'] } }])).toThrow(
      /a summary is required/,
    );
    expect(
      await documentOf([
        { url: '/a', schema: { ...ok, operationId: 'same' } },
        { url: '/b', schema: { ...ok, operationId: 'same' } },
      ]),
    ).toThrow(/operationId same names both/);
  });

  it('a route that declares 401 needs a user; the others are public', async () => {
    const doc = (
      await documentOf([
        { url: '/open', schema: { tags: ['ops'], summary: 'Open' } },
        {
          url: '/mine',
          schema: {
            tags: ['ops'],
            summary: 'Mine',
            response: { 401: errorSchema },
          },
        },
      ])
    )() as { paths: Record<string, { get: { security: unknown; responses: object } }> };
    expect(doc.paths[`${API_PATH}/open`]!.get.security).toEqual([]);
    expect(doc.paths[`${API_PATH}/mine`]!.get.security).toEqual([
      { googleIdToken: [] },
      { session: [] },
    ]);
    expect(Object.keys(doc.paths[`${API_PATH}/open`]!.get.responses)).toContain('401');
  });
});

for (const kind of databaseKinds()) {
  describe(`OpenAPI document → generated client (${kind.name})`, () => {
    const t = useTestApp(kind, { listen: true });
    let baseUrl = '';

    beforeAll(async () => {
      const address = t.app.server.address();
      if (!address || typeof address === 'string') throw new Error('not listening');
      baseUrl = `http://127.0.0.1:${address.port}`;
      const dir = path.join(outDir, kind.name);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      // The document as a client author downloads it.
      const doc = (await (await fetch(`${baseUrl}/apps/sagan/api/docs/json`)).json()) as OpenAPI3;
      fs.writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(doc)));
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
      fs.writeFileSync(path.join(dir, 'round-trip.ts'), ROUND_TRIP);
    }, 120_000);

    it('generated types accept the round trip and refuse a wrong field', () => {
      // wrongField's @ts-expect-error is itself an error if the wrong field compiled.
      expect(roundTripTypeErrors(path.join(outDir, kind.name))).toEqual([]);
    }, 120_000);

    it('runs a scorekeeping round trip through the generated client', async () => {
      const mod = (await import(
        pathToFileURL(path.join(outDir, kind.name, 'round-trip.ts')).href
      )) as RoundTripModule;
      const result = await mod.roundTrip(baseUrl);
      expect(result.patchedAt).toBeTypeOf('number');
      expect(result.score).toEqual([3, 1]);
      expect(result.period).toBe('Q2');
      expect(result.commentId).toBeTypeOf('string');
      expect(result.tagNames).toEqual(['Lions', 'U10']);
      expect(result.readTags?.slice().sort()).toEqual(['Lions', 'U10']);
      expect(result.readComments).toEqual(['What a start!']);
      expect(result.messages).toEqual([['Sam Fan', 'Halftime score please']]);
      expect(result.fanRefused).toEqual([403, expect.any(String)]);
      expect(result.anonymousRefused).toEqual([401, expect.any(String)]);
    });
  });
}
