/* global self, caches */
// The input screens' service worker (DESIGN §10). Registered twice, with the scopes
// /apps/sagan/scoregame/ and /apps/sagan/playcount/, so it controls the scorekeeper and the play
// counter and nothing else: fans' pages are always the server's.
// At install it caches the whole app shell, so that one online visit of an input screen is
// enough for it to open offline: the page (index.html: every input screen is the app routing by
// its URL) and every file of the build. The list below is written by the build
// (apps/web/vite.config.ts, serviceWorkerPrecache), so it cannot go stale, and a new build
// changes this file's bytes, so browsers install the new worker.
// Pages come from the network first (the cached shell when it cannot be reached); the build's
// files from the cache. API calls and the WebSocket always go to the network; the outbox keeps
// taps made offline, and IndexedDB the last state of each game and count (apps/web/src/lib).
const PRECACHE = [];
const BASE = '/apps/sagan/';
const SHELL = `${BASE}index.html`;

function hashOf(text) {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 33) ^ text.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

// One cache per registration and build: the two registrations can be on different builds for
// a while, and each deletes only its own older caches.
const PREFIX = `sagan-shell:${new URL(self.registration.scope).pathname}:`;
const CACHE = `${PREFIX}${hashOf(PRECACHE.join('\n'))}`;
// What the worker kept before it precached the shell (it then kept pages as they were visited).
const LEGACY_CACHE = 'sagan-scorekeeper-v1';

// The hashed assets never change: the browser's HTTP cache may give them (the page has just
// loaded most of them, and the other registration fetches the same list). Anything else goes
// around it: an hour-old index.html could name the files of an older build.
function precacheRequest(url) {
  return new Request(url, { cache: url.startsWith(`${BASE}assets/`) ? 'default' : 'reload' });
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map(precacheRequest)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((k) => k === LEGACY_CACHE || (k.startsWith(PREFIX) && k !== CACHE))
            .map((k) => caches.delete(k)),
        ),
      ),
  );
});

async function pageNetworkFirst(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const shell = await caches.match(SHELL, { cacheName: CACHE });
    if (shell) return shell;
    throw err;
  }
}

async function fileCacheFirst(request) {
  const cached = await caches.match(request, { cacheName: CACHE, ignoreSearch: true });
  return cached ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(BASE)) return;
  if (url.pathname.startsWith(`${BASE}api/`) || url.pathname.startsWith(`${BASE}ws`)) return;
  if (request.mode === 'navigate') event.respondWith(pageNetworkFirst(request));
  else event.respondWith(fileCacheFirst(request));
});
