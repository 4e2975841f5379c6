// The static site's service worker: every file of the site is cached when
// it installs, and answered from that cache from then on, so the game and
// the solver play offline once loaded.  `quiddler site` writes the build's
// name and its file list in; a rebuilt site is a new worker, which fills a
// new cache and drops the old one.

const BUILD = "__BUILD__";
const FILES = __FILES__;
const CACHE = `quiddler-site-${BUILD}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("quiddler-site-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(event.request, { ignoreSearch: true }))
      .then((hit) => hit || fetch(event.request)),
  );
});
