import type { Page } from '@playwright/test';
import { test, expect, apiAs, unique, BASE, API, signIn } from './fixtures.ts';
import { seedEveryScreen } from './every-screen.ts';

// The app takes a server-rendered page over without replacing it: the elements the server
// sent are the ones the app goes on with (a visitor's focus, an image being decoded, an
// element a test holds all stay). Preact reports no hydration mismatch the way React's
// onRecoverableError does: a mismatch shows as elements removed, which is what is watched.

/** The server-rendered pages (apps/server/src/rendered-pages.ts). */
const RENDERED =
  /^\/($|scoreboards$|taggedscoreboards\/|viewscoreboard\/|viewscoreboardmini\/|teamsheets\/|playcountshare\/)/;

interface Watch {
  /** 'page' until the app takes over, 'takeover' in its first render, then 'after'. */
  phase: 'page' | 'takeover' | 'after';
  /** Element nodes removed from under #root, with the phase they were removed in. */
  removed: string[];
  /** The link each removal held ('' for none), in the order of `removed`. */
  links: string[];
  /** How many elements #root held when the app took over. */
  renderedElements: number;
}

/** Installed before any script of the page runs. */
function watchTakeover() {
  const w = window as unknown as { __takeover: Watch };
  const watch: Watch = { phase: 'page', removed: [], links: [], renderedElements: 0 };
  w.__takeover = watch;
  const name = (el: Element) =>
    `${el.localName}${el.id ? `#${el.id}` : ''}${[...el.classList].map((c) => `.${c}`).join('')}`;
  new MutationObserver((records) => {
    for (const r of records) {
      const target = r.target as Element;
      const root = document.getElementById('root');
      // main.tsx ends aria-busy just before its first render: the rest of this batch is
      // that render (a later render comes in a later batch).
      if (r.type === 'attributes') {
        if (target === root && watch.phase === 'page' && !root.hasAttribute('aria-busy')) {
          watch.phase = 'takeover';
          watch.renderedElements = root.querySelectorAll('*').length;
        }
        continue;
      }
      if (!(target instanceof Element) || !target.closest('#root')) continue;
      for (const n of r.removedNodes) {
        if (!(n instanceof Element)) continue;
        watch.removed.push(`${watch.phase}: ${name(n)} from ${name(target)}`);
        watch.links.push((n.matches('a') ? n : n.querySelector('a'))?.getAttribute('href') ?? '');
      }
    }
    if (watch.phase === 'takeover') watch.phase = 'after';
  }).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-busy'],
  });
}

/** Opens a page and answers what was removed; signed out, once the session check is answered. */
async function open(page: Page, path: string, ready: string | RegExp, signedOut: boolean) {
  // The mini card has no menu and Scoreboards carries its session: they ask no one.
  const session =
    signedOut && !/^\/(viewscoreboardmini\/|scoreboards$)/.test(path)
      ? page.waitForResponse((r) => r.url().endsWith(`${API}/auth/session`))
      : null;
  await page.goto(`${BASE}${path}`);
  await (await session)?.finished();
  await expect(page.locator('#root:not([aria-busy="true"])')).toBeAttached();
  await expect(page.getByText(ready).first()).toBeVisible();
  const watch = await page.evaluate(() => {
    const w = (window as unknown as { __takeover: Watch }).__takeover;
    // The lists are live and other tests add games all along: a game pushed off a list after
    // the takeover is news, not a replacement. An item is news only if what it linked to is
    // nowhere on the page any more; one replaced by its own copy still counts as removed.
    const root = document.getElementById('root')!;
    const linked = (href: string) =>
      [...root.querySelectorAll('a')].some((a) => a.getAttribute('href') === href);
    const isNews = (r: string, i: number) =>
      r.startsWith('after:') && w.links[i] !== '' && !linked(w.links[i]!);
    return { ...w, removed: w.removed.filter((r, i) => !isNews(r, i)) };
  });
  expect(watch.phase, `${path} was taken over`).toBe('after');
  expect(watch.renderedElements, `${path} came server-rendered`).toBeGreaterThan(10);
  return watch;
}

test('the app takes every server-rendered page over without replacing an element', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = unique('Takeover');
  const me = await apiAs(request, owner);
  const { screens } = await seedEveryScreen(me);
  const rendered = screens.filter(([path]) => RENDERED.test(path));
  expect(rendered).toHaveLength(8);
  await page.addInitScript(watchTakeover);

  // Signed out, the page the server rendered is the page the app shows once it knows nobody
  // is signed in: nothing is removed, then or later.
  for (const [path, ready] of rendered) {
    const { removed } = await open(page, path, ready, true);
    expect(removed, `elements removed on ${path}`).toEqual([]);
  }

  // Signed in, the shared pages were rendered for nobody in particular: the user's menu
  // comes with the session's answer after the takeover, which itself removes nothing.
  await signIn(page, owner);
  for (const [path, ready] of rendered) {
    const { removed } = await open(page, path, ready, false);
    const byTakeover = removed.filter((r) => !r.startsWith('after:'));
    expect(byTakeover, `elements removed on ${path} by the takeover`).toEqual([]);
  }
  await expect(page.getByRole('button', { name: owner })).toBeVisible();
});
