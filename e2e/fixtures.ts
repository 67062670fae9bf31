import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

export const BASE = '/apps/sagan';
export const API = `${BASE}/api`;

/** Signs a browser context in through the API (no UI), as epic-stack's fixtures do. */
export async function signIn(page: Page, displayName: string): Promise<{ uid: string }> {
  const res = await page.request.post(`${API}/auth/local`, {
    headers: { 'x-sagan-request': '1' },
    data: { displayName },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { uid: string };
}

/** An API client signed in as someone (a phone app standing in, on the same server). */
export async function apiAs(
  request: APIRequestContext,
  displayName: string,
): Promise<{
  uid: string;
  call: (method: string, path: string, data?: unknown) => Promise<unknown>;
}> {
  const res = await request.post(`${API}/auth/local`, {
    headers: { 'x-sagan-request': '1' },
    data: { displayName },
  });
  expect(res.status()).toBe(200);
  const { uid } = (await res.json()) as { uid: string };
  return {
    uid,
    async call(method, path, data) {
      const r = await request.fetch(`${API}${path}`, {
        method,
        headers: { 'x-sagan-request': '1' },
        data,
      });
      if (!r.ok()) throw new Error(`${method} ${path}: ${r.status()} ${await r.text()}`);
      const text = await r.text();
      return text ? JSON.parse(text) : undefined;
    },
  };
}

/** Unique names per test run, so tests never see each other's data. */
export function unique(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 8)}`;
}

/** Fails a test on any console error the page logs that the test did not expect. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(err.message));
      await use(errors);
    },
    { auto: true },
  ],
});

export { expect };

/** Saves a full-page screenshot to .tmp/screens/<name>.png, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: new URL(`../.tmp/screens/${name}.png`, import.meta.url).pathname,
    fullPage: true,
  });
}
