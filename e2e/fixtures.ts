import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { API_PATH } from '@sagan/shared/http';
import { BASE_PATH } from '@sagan/shared/routes';

export const BASE = BASE_PATH;
export const API = API_PATH;

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

export type Api = Awaited<ReturnType<typeof apiAs>>;

/**
 * Opens a page of the app and waits until the app has taken the server-rendered page over
 * (#root no longer busy): a tap before then reaches a page that does not yet know who is
 * signed in.
 */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(`${BASE}${path}`);
  await expect(page.locator('#root')).not.toHaveAttribute('aria-busy', 'true');
}

/** Creates a game through the API (as the phone app would); answers its key. */
export async function createGame(
  keeper: Pick<Api, 'call'>,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const { gameKey } = (await keeper.call('POST', '/games', fields)) as { gameKey: string };
  return gameKey;
}

/** Unique names per test run, so tests never see each other's data. */
export function unique(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 8)}`;
}

/** A console error a test expects, and why: the reason is for the next reader. */
interface AllowedConsoleError {
  match: RegExp;
  reason: string;
}

interface ConsoleFixtures {
  /** For a describe or a file: `test.use({ allowConsoleErrors: [{ match, reason }] })`. */
  allowConsoleErrors: AllowedConsoleError[];
  /** For one test: `allowConsoleError(/404/, 'why this test expects it')`. */
  allowConsoleError: (match: RegExp, reason: string) => void;
  /** Every console error and uncaught page error so far, of every page the test opened. */
  consoleErrors: string[];
}

interface ConsoleWatch {
  errors: string[];
  allowed: AllowedConsoleError[];
}

function checkReason({ match, reason }: AllowedConsoleError): AllowedConsoleError {
  if (!reason.trim()) throw new Error(`allowed console error ${match} needs a reason`);
  return { match, reason };
}

function watchContext(context: BrowserContext, errors: string[]): void {
  const watchPage = (page: Page) => {
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // A failed request logs only its status: the location says which URL it was.
      const where = msg.location().url || page.url();
      errors.push(`console.error on ${where}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => errors.push(`uncaught on ${page.url()}: ${err.message}`));
  };
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
}

interface PersonFixtures {
  /** A new person's display name, unique to the test: `api` and `signedInPage` are this person. */
  person: string;
  /** An API client signed in as `person` (the phone app standing in). */
  api: Api;
  /** The test's own `page`, signed in as `person` through the API. */
  signedInPage: Page;
}

/**
 * Fails a test on any console error or uncaught exception of any of its pages (its own `page`,
 * and those of contexts it opens with `browser.newContext()`), unless the test allowed it.
 * Hands a test that asks for them a new person, signed in on the API (`api`) and on its page
 * (`signedInPage`).
 */
export const test = base.extend<ConsoleFixtures & PersonFixtures & { consoleWatch: ConsoleWatch }>({
  // Playwright reads a fixture's dependencies from its pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  person: async ({}, use) => use(unique('Person')),
  api: async ({ request, person }, use) => use(await apiAs(request, person)),
  signedInPage: async ({ page, person }, use) => {
    await signIn(page, person);
    await use(page);
  },
  allowConsoleErrors: [[], { option: true }],
  consoleWatch: [
    async ({ browser, context, allowConsoleErrors }, use) => {
      const watch: ConsoleWatch = { errors: [], allowed: allowConsoleErrors.map(checkReason) };
      watchContext(context, watch.errors);
      // Contexts the test opens itself (a second viewer, an anonymous visitor) are watched too.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const opened = await newContext(...args);
        watchContext(opened, watch.errors);
        return opened;
      };
      try {
        await use(watch);
      } finally {
        browser.newContext = newContext;
      }
      const unexpected = watch.errors.filter((e) => !watch.allowed.some((a) => a.match.test(e)));
      expect(unexpected, 'console errors the test did not allow').toEqual([]);
    },
    { auto: true },
  ],
  consoleErrors: async ({ consoleWatch }, use) => use(consoleWatch.errors),
  allowConsoleError: async ({ consoleWatch }, use) =>
    use((match, reason) => {
      consoleWatch.allowed.push(checkReason({ match, reason }));
    }),
});

export { expect };

/** Saves a full-page screenshot to .tmp/screens/<name>.png, for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: new URL(`../.tmp/screens/${name}.png`, import.meta.url).pathname,
    fullPage: true,
  });
}
