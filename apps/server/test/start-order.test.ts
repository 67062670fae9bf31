import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Db } from '../src/db/db.ts';
import { BASE_PATH } from '@sagan/shared/routes';
import { API, databaseKinds, testConfig } from './helpers.ts';

// What a start does while the database is still opening (the embedded one takes longer to
// start than the app's modules take to load): work that needs no database is not left until
// after it.

const INDEX = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';

describe.each(databaseKinds())('a start while the database opens, on $name', (kind) => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads the server-rendering bundle before the database is ready', async () => {
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-start-order-'));
    dirs.push(webDist);
    const flag = `sagan-start-order-${kind.name}`;
    fs.writeFileSync(path.join(webDist, 'index.html'), INDEX);
    fs.mkdirSync(path.join(webDist, '.ssr'));
    fs.writeFileSync(
      path.join(webDist, '.ssr', 'entry-server.js'),
      `globalThis[${JSON.stringify(flag)}] = true;
export async function renderScoreboard() { return { html: '<p>rendered</p>' }; }`,
    );
    const loaded = () => (globalThis as Record<string, unknown>)[flag] === true;

    let resolveOpening!: (db: Db) => void;
    const opening = new Promise<Db>((resolve) => (resolveOpening = resolve));
    const building = buildApp(testConfig({ webDist }), { opening, logger: false });
    // The bundle loads while the database has not answered: without that, this waits forever.
    await expect.poll(loaded, { timeout: 30_000 }).toBe(true);

    // The app then starts as before once the database is there, and serves from both.
    const test = await kind.open();
    // The app closes what it was given through `opening`; the test's cleanup closes it after.
    resolveOpening({ ...test.db, close: async () => undefined });
    const app = await building;
    try {
      await app.ready();
      const tags = await app.inject({ method: 'GET', url: `${API}/tags` });
      expect(tags.statusCode).toBe(200);
      const home = await app.inject({ method: 'GET', url: `${BASE_PATH}/` });
      expect(home.body).toContain('<div id="root" aria-busy="true"><p>rendered</p></div>');
    } finally {
      await app.close();
      await test.cleanup();
    }
  });
});
