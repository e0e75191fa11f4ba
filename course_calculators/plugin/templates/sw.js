// The site's service worker: after a first visit, the whole site — pages, Python, calculators —
// works with the network off. Written by the calculators plugin at build time; the two constants
// below are filled in then (this file's bytes change with every deployment that changes a file,
// which is how the browser learns there is a new version).
//
// - install: precache every page and asset of this version into a cache named by VERSION;
//   the page registers this only when the reader asks for an offline copy, or by itself on a fast,
//   unmetered connection once Python is ready (page/offline.js), so the first visit is never slowed.
// - activate: delete the caches of other versions, so no old page meets new assets.
// - fetch: files whose name carries their hash (never change) come from the cache first;
//   everything else goes to the network first, so an online reader always sees the newest
//   version, and falls back to this version's cache when the network fails.
const VERSION = "__VERSION__";
const PRECACHE = __PRECACHE__; // paths relative to this file
const CACHE = `calculators-site-${VERSION}`;
const IMMUTABLE = /(\/snapshot-[0-9a-f]+\.bin\.gz|\/stdlib-[a-z]+-[0-9a-f]+\.zip|\/[0-9a-f]{16}\/[^/]+\.whl|\.[0-9a-f]{8}\.min\.(js|css))$/;

self.addEventListener("install", (event) => {
  const urls = PRECACHE.map((path) => new URL(path, self.registration.scope).href);
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(urls.map((url) => new Request(url, { cache: "no-cache" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("calculators-site-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  // Pages carry widget state in their query string; assets a cache-busting ?v=.
  return cache.match(request, { ignoreSearch: true });
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy)).catch(() => {});
    }
    return response;
  } catch (err) {
    const cached = await fromCache(request);
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request) {
  return (await fromCache(request)) || networkFirst(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  const path = new URL(request.url).pathname;
  event.respondWith(IMMUTABLE.test(path) ? cacheFirst(request) : networkFirst(request));
});
