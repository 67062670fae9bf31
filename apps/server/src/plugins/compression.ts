import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/**
 * The levels for what is compressed per response (pages, API JSON). Static files are
 * compressed once at build time at the highest levels (apps/web/vite.config.ts) and sent as
 * they are; these are paid on every response, so they are cheap ones (bench/compression.ts
 * weighs the CPU against the bytes; docs/performance.md).
 */
const DYNAMIC_BROTLI_QUALITY = 4;
const DYNAMIC_GZIP_LEVEL = 6;

/** Below this, compressing saves less than it costs. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * HTML and JSON answers above 1 KB compressed with brotli or gzip, as the client accepts.
 * Registered before the static files, so their precompressed versions count as encoded and
 * are not compressed again. Request bodies are not inflated: clients send plain JSON, and an
 * inflated body could be far larger than the body limit it passed.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    // Compressed in one go, with a Content-Length, up to 64 KB: a page with its inlined styles
    // is 10–30 KB, ≈ 0.5 ms at these levels (the default on 2 cores, 8 KB, streamed them).
    syncThreshold: 64 * 1024,
    // Every browser sends br or gzip; nothing is gained by also offering deflate.
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: DYNAMIC_GZIP_LEVEL },
  });
}
