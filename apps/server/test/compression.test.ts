import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { API, databaseKinds, useTestApp } from './helpers.ts';

// What goes over the wire: the real client build (apps/web/vite.config.ts writes .br and .gz
// beside every text file) served by the real server, which also compresses pages and JSON.

const WEB_ROOT = path.resolve(import.meta.dirname, '../../web');
const TEXT = /\.(?:js|css|html|svg|json|webmanifest)$/;

let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-compression-'));
  await build({ root: WEB_ROOT, logLevel: 'silent', build: { outDir: dist, emptyOutDir: true } });
}, 120_000);
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith('.') ? [] : filesUnder(file);
    return [file];
  });
}

function decode(res: LightMyRequestResponse): Buffer {
  const raw = res.rawPayload;
  switch (res.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(raw);
    case 'gzip':
      return zlib.gunzipSync(raw);
    case undefined:
      return raw;
    default:
      throw new Error(`unexpected encoding ${String(res.headers['content-encoding'])}`);
  }
}

const varies = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('the client build', () => {
  it('has a brotli and a gzip copy of every text file, each decoding to the file', () => {
    const files = filesUnder(dist);
    const text = files.filter((f) => TEXT.test(f));
    expect(text.filter((f) => f.includes(`${path.sep}assets${path.sep}`)).length).toBeGreaterThan(
      10,
    );
    for (const file of text) {
      const body = fs.readFileSync(file);
      expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).equals(body), file).toBe(
        true,
      );
      expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).equals(body), file).toBe(true);
    }
    // Images are already packed: no copies of them.
    expect(files.filter((f) => /\.png\.(br|gz)$/.test(f))).toEqual([]);
  });
});

describe.each(databaseKinds())('compression on the wire on $name', (kind) => {
  const t = useTestApp(kind, () => ({ config: { webDist: dist } }));

  /** The largest script of the build, as the browser asks for it. */
  function biggestScript(): { url: string; body: Buffer } {
    const assets = path.join(dist, 'assets');
    const name = fs
      .readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .sort(
        (a, b) => fs.statSync(path.join(assets, b)).size - fs.statSync(path.join(assets, a)).size,
      )[0]!;
    return { url: `/apps/sagan/assets/${name}`, body: fs.readFileSync(path.join(assets, name)) };
  }

  it('sends a script precompressed in the encoding the client prefers, decoding to the file', async () => {
    const { url, body } = biggestScript();
    for (const [accept, encoding] of [
      ['br, gzip, deflate', 'br'],
      ['gzip, deflate', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const res = await t.app.inject({
        url,
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-encoding'], String(accept)).toBe(encoding);
      expect(varies(res), String(accept)).toBe(true);
      expect(String(res.headers['content-type'])).toMatch(/javascript/);
      expect(res.headers['cache-control']).toMatch(/immutable/);
      expect(decode(res).equals(body), String(accept)).toBe(true);
      if (encoding) expect(res.rawPayload.length).toBeLessThan(body.length / 2);
    }
  });

  it('compresses a page, and the bytes decode to the page sent uncompressed', async () => {
    const plain = await t.app.inject({ url: '/apps/sagan/login' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root">');
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await t.app.inject({
        url: '/apps/sagan/login',
        headers: { 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(varies(res)).toBe(true);
      expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(decode(res).toString('utf8')).toBe(plain.body);
    }
  });

  it('compresses JSON above 1 KB and leaves small answers as they are', async () => {
    const big = await t.app.inject({
      url: `${API}/docs/json`,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    const doc = JSON.parse(decode(big).toString('utf8')) as { openapi?: string };
    expect(doc.openapi).toMatch(/^3\./);
    const small = await t.app.inject({
      url: `${API}/health`,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ ok: true });
  });

  it('does not inflate a compressed request body: refused, and nothing is made', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/local`,
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-sagan-request': '1',
      },
      payload: zlib.gzipSync(JSON.stringify({ displayName: 'Zipped' })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
