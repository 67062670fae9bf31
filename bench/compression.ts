// bench/compression: what compressing a response costs and saves, per level, on the bodies
// Sagan compresses per request (server-rendered pages and API JSON). Static files are
// compressed once at build time at the highest levels and are not measured here.
// Prints, per encoding and level, the bytes sent and the CPU time to compress each body
// (median of many runs, this process pinned to one core), against the time on the wire that
// the saved bytes are worth on a field's 4G (≈ 1.6 Mbit/s, Lighthouse's mobile throttling).
//
//   npm run bench:compression
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { API_PATH } from '@sagan/shared/http';
import { pageUrl, seedPublicPages } from '../scripts/lib/public-pages.ts';
import { machine, reexecPinned, root, startSagan, stopServers } from './lib/procs.ts';

const RUNS = 200;
/** Lighthouse's simulated mobile network: 1.6 Mbit/s down. */
const BYTES_PER_MS = 1.6e6 / 8 / 1000;

function medianMs(f: () => void): number {
  const t: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = process.hrtime.bigint();
    f();
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)]!;
}

const brotli = (q: number) => (b: Buffer) =>
  zlib.brotliCompressSync(b, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: q,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
const gzip = (level: number) => (b: Buffer) => zlib.gzipSync(b, { level });

async function main() {
  reexecPinned();
  const dist = path.join(root, 'apps/web/dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-bench-compression-'));
  const server = await startSagan({ dataDir, webDist: dist });
  const base = `http://127.0.0.1:${server.port}`;
  const bodies: [string, Buffer][] = [];
  try {
    const pages = await seedPublicPages(base);
    for (const name of ['scoreboard', 'team sheet', 'dashboard']) {
      const page = pages.find((p) => p.name === name)!;
      const res = await fetch(pageUrl(base, page), { headers: { 'accept-encoding': 'identity' } });
      bodies.push([`${name} HTML`, Buffer.from(await res.arrayBuffer())]);
    }
    const doc = await fetch(`${base}${API_PATH}/docs/json`, {
      headers: { 'accept-encoding': 'identity' },
    });
    bodies.push(['OpenAPI JSON', Buffer.from(await doc.arrayBuffer())]);
  } finally {
    await stopServers([server]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const codecs: [string, (b: Buffer) => Buffer][] = [
    ...[1, 4, 6, 9].map((l) => [`gzip ${l}`, gzip(l)] as [string, (b: Buffer) => Buffer]),
    ...[1, 4, 5, 7, 11].map((q) => [`br ${q}`, brotli(q)] as [string, (b: Buffer) => Buffer]),
  ];
  console.log(`\nCompression per response, ${machine()}; median of ${RUNS}\n`);
  console.log('| body | plain KB | codec | sent KB | CPU ms | wire ms saved at 1.6 Mbit/s |');
  console.log('|---|---:|---|---:|---:|---:|');
  for (const [name, body] of bodies) {
    for (const [codec, f] of codecs) {
      const out = f(body);
      const ms = medianMs(() => f(body));
      console.log(
        `| ${name} | ${(body.length / 1024).toFixed(1)} | ${codec} | ${(out.length / 1024).toFixed(1)} | ${ms.toFixed(3)} | ${((body.length - out.length) / BYTES_PER_MS).toFixed(0)} |`,
      );
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
