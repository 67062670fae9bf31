// First: schemas built by the imports below must already find zod jitless (no eval probe).
import './lib/zod-jitless.ts';
import { StrictMode, useLayoutEffect } from 'react';
import { render, type ComponentChild } from 'preact';
import { BrowserRouter, useLocation } from 'react-router';
import { BASE_PATH, opensUnisolated } from '@sagan/shared/routes';
import { AppRoutes, preloadRoute } from './app/router.tsx';
import {
  readInitialConfig,
  readInitialSession,
  setInitialConfig,
  setInitialSession,
} from './lib/auth.ts';
import { remember } from './lib/device-user.ts';
import { readInitialTopics, realtime } from './lib/realtime.ts';
import './styles.css';

// A server-rendered page was rendered knowing the site's config: so is the app's first render.
setInitialConfig(readInitialConfig(document));
// A per-user page (Scoreboards) was rendered for this browser's session: the app starts with
// that answer rather than showing Loading until it has asked again.
const initialUser = readInitialSession(document);
if (initialUser !== undefined) {
  setInitialSession(initialUser);
  remember(initialUser);
}

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

function start(container: HTMLElement) {
  // A keyboard user may already be on a control of the server-rendered page: should the app's
  // render replace that control, the same control (by its place among the focusable ones, the
  // markup being the same) gets focus back.
  const focusables = () => [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const focusedAt = focusables().indexOf(document.activeElement as HTMLElement);
  // Text selected in that field (a select-all before typing over it) stays selected, so the
  // next keystroke replaces it as it would have.
  const active = document.activeElement;
  const selection =
    active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement
      ? { start: active.selectionStart, end: active.selectionEnd }
      : null;
  // A visitor may also have typed into a field of it already (a team sheet's search, say):
  // the app's render sets a field to its state's value (empty), and the text would be lost.
  const typed = textFields(container).flatMap((field, at) =>
    field.value !== field.defaultValue ? [{ at, value: field.value }] : [],
  );
  // From here on the app's own handlers answer: theme-init.js stops keeping taps.
  const early = window.__saganEarly ?? [];
  window.__saganEarly = null;
  container.removeAttribute('aria-busy');
  const app = (
    <StrictMode>
      <BrowserRouter basename={BASE_PATH}>
        <KeepOpenerIsolation />
        <AppRoutes />
      </BrowserRouter>
    </StrictMode>
  );
  // Preact's own render, not preact/compat's createRoot: it takes the server's markup over,
  // keeping every element that matches and mending only what differs, where createRoot first
  // empties the container (as React's does) and builds a copy of every element in the same
  // task: the header a visitor or a test holds is gone, an image is decoded again. (Back on
  // React, this is hydrateRoot.)
  render(app as ComponentChild, container);
  // Preact has rendered the preloaded page by now, with the same fields in the same order. The
  // text goes in as typing would, so the page's own state (its filter) follows it too.
  const fields = textFields(container);
  for (const { at, value } of typed) {
    const field = fields[at];
    if (!field || field.value === value) continue;
    field.value = value;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  // In this same task: a keystroke arriving after it must find the app's field focused, not
  // the body, should the render have replaced the field.
  const refocused = focusedAt >= 0 ? focusables()[focusedAt] : undefined;
  refocused?.focus();
  if (
    selection &&
    (refocused instanceof HTMLInputElement || refocused instanceof HTMLTextAreaElement)
  ) {
    try {
      refocused.setSelectionRange(selection.start, selection.end);
    } catch {
      // Some input types (email, number) have no selection to restore.
    }
  }
  // Each tap once, on the app's element in the same place.
  const buttons = container.querySelectorAll('button');
  const forms = container.querySelectorAll('form');
  for (const { kind, at } of early) {
    if (kind === 'click') buttons[at]?.click();
    else forms[at]?.requestSubmit();
  }
}

/** Whether this document came without Cross-Origin-Opener-Policy (a fan's public page). */
const unisolated = opensUnisolated(location.pathname.slice(BASE_PATH.length) || '/');

/**
 * A fan's public page is sent without COOP (docs/decisions/0016-opener-isolation-by-page.md);
 * a window another site opened may then still hold it. Any other page (signing in, a list of
 * one's own, an input screen) is loaded again as a document of its own, which the server sends
 * with COOP, so that handle is cut before it shows anything of the person's.
 */
function KeepOpenerIsolation() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    // A frame has no opener policy of its own (browsers apply COOP to top-level windows only),
    // and inside one the app shows its refusal for any screen but the mini card (router.tsx):
    // loaded again, the screen would only be blocked by the browser, with no way out shown.
    if (unisolated && window.self === window.top && !opensUnisolated(pathname)) location.reload();
  }, [pathname]);
  return null;
}

declare global {
  interface Window {
    /** Taps and submits made before the app took over, kept by public/theme-init.js. */
    __saganEarly?: { kind: 'click' | 'submit'; at: number }[] | null;
  }
}

/** Resolves in a later task: scheduler.yield where the browser has it (it keeps its place ahead
 * of other queued work), else a new timer task. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The fields a visitor types text into, in document order. */
function textFields(container: HTMLElement): (HTMLInputElement | HTMLTextAreaElement)[] {
  return [
    ...container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
      'input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden]), textarea',
    ),
  ];
}

// Preact renders a navigation at once, showing Loading until the next page's code has
// arrived (React would keep the old page meanwhile; docs/decisions/0012). Starting that
// download when a pointer or the focus reaches one of our links usually hides the wait.
function preloadLinkTarget(e: Event) {
  const link = e.target instanceof Element ? e.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin) return;
  if (!link.pathname.startsWith(`${BASE_PATH}/`)) return;
  preloadRoute(link.pathname.slice(BASE_PATH.length)).catch(() => undefined);
}
for (const type of ['pointerover', 'focusin', 'touchstart']) {
  document.addEventListener(type, preloadLinkTarget, { passive: true });
}

// A server-rendered page (docs/decisions/0013-server-rendered-first-paint.md) carries the topic
// states it was rendered with. Seeded with them, and with the page's module loaded first, the
// first render is the same page, so replacing the server's markup changes nothing on screen;
// the subscriptions then resume from those sequence numbers.
const initial = readInitialTopics(document);
// A signed-out Scoreboards page shows no topic, yet is rendered all the same.
if (initial.length > 0 || initialUser !== undefined) {
  for (const t of initial) realtime.seed(t);
  // Until the app has taken over, the page is about to be replaced: assistive technology waits.
  root.setAttribute('aria-busy', 'true');
  const path = location.pathname.slice(BASE_PATH.length) || '/';
  // A failed preload still starts the app: the page then loads the usual lazy way. The page's
  // module runs in the task its file arrived in; the takeover's render gets a task of its own,
  // so neither holds the main thread for both (a tap between them waits less; the rendered
  // page is on screen meanwhile).
  preloadRoute(path)
    .catch(() => undefined)
    .then(nextTask)
    .then(() => {
      // A page's first date or time formatted loads the locale's data: 35-100 ms on this
      // machine, in the one task of the takeover's render otherwise. A page that shows one (in
      // a <time>) has that done in a task of its own first; every later format is cheap.
      if (!root.querySelector('time')) return;
      new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).format(0);
      return nextTask();
    })
    .finally(() => start(root));
} else {
  start(root);
}
