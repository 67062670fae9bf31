/* global self, caches */
// The scorekeeper's service worker. Registered with the scope /apps/sagan/scoregame/ only, so
// it controls the scorekeeper and nothing else: public pages are always the server's.
// It keeps what the scorekeeper needs to open without network once visited: its page (network
// first, the last copy when offline) and the hashed assets (cache first: they never change).
// API calls and the WebSocket always go to the network; the outbox keeps taps made offline.
const CACHE = 'sagan-scorekeeper-v1';
const BASE = '/apps/sagan/';
const SHELL = `${BASE}scoregame/`;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function pageNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      // Any scorekeeper page serves as the shell of another: the app routes by its URL.
      await cache.put(request, response.clone());
      await cache.put(SHELL, response.clone());
    }
    return response;
  } catch (err) {
    const cached = (await cache.match(request)) ?? (await cache.match(SHELL));
    if (cached) return cached;
    throw err;
  }
}

async function assetCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function staticNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw err;
  }
}

// The page tells what it loaded before this worker controlled it (its own page and assets).
self.addEventListener('message', (event) => {
  const { data } = event;
  if (!data || data.type !== 'keep' || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter(
    (u) => typeof u === 'string' && new URL(u).origin === self.location.origin,
  );
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        urls.map((u) =>
          cache.match(u).then((hit) =>
            hit
              ? undefined
              : fetch(u, { credentials: 'same-origin' }).then(
                  (response) => {
                    if (!response.ok) return undefined;
                    const puts = [cache.put(u, response.clone())];
                    if (new URL(u).pathname.startsWith(SHELL))
                      puts.push(cache.put(SHELL, response));
                    return Promise.all(puts);
                  },
                  () => undefined,
                ),
          ),
        ),
      ),
    ),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(BASE)) return;
  if (url.pathname.startsWith(`${BASE}api/`) || url.pathname.startsWith(`${BASE}ws`)) return;
  if (request.mode === 'navigate') {
    if (url.pathname.startsWith(SHELL)) event.respondWith(pageNetworkFirst(request));
    return;
  }
  if (url.pathname.startsWith(`${BASE}assets/`)) event.respondWith(assetCacheFirst(request));
  else event.respondWith(staticNetworkFirst(request));
});
