// The army builder's service worker (armybuilder/offline.py). Release {{ release }}.
{% if enabled %}"use strict";
const CACHE = "armybuilder-offline-{{ release }}";
const STATIC_PREFIX = "{{ static_prefix|escapejs }}";
const OFFLINE_HEADER = "{{ header }}";

self.addEventListener("install", () => self.skipWaiting());

// A new release removes every older cache: no page or script of the last release survives it.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key !== CACHE) { await caches.delete(key); }
    }
    await self.clients.claim();
  })());
});

// Signing out forgets the offline copies (site.js asks when a page is seen signed out).
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "forget-offline-copies") {
    event.waitUntil(caches.delete(CACHE));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  event.respondWith(networkFirst(request, url.pathname.startsWith(STATIC_PREFIX)));
});

// Network first, always; keep what the server allows (its own list's pages) and the static
// files those pages need; fall back to the kept copy only when the network fails.
async function networkFirst(request, isStatic) {
  try {
    const response = await fetch(request);
    if (response.ok && (isStatic || response.headers.get(OFFLINE_HEADER))) {
      const headers = new Headers(response.headers);
      headers.set("X-Offline-Saved-At", new Date().toISOString());
      const body = await response.clone().arrayBuffer();
      const cache = await caches.open(CACHE);
      await cache.put(request, new Response(body, {status: response.status, statusText: response.statusText, headers}));
    }
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(request, {ignoreVary: true});
    if (!kept) { throw error; }
    const type = kept.headers.get("Content-Type") || "";
    if (isStatic || !type.startsWith("text/html")) { return kept; }
    // Tell the page it is an offline copy, and from when (site.js shows the banner).
    const savedAt = kept.headers.get("X-Offline-Saved-At") || "";
    const html = (await kept.text()).replace("<body", `<body data-offline-copy="${savedAt}"`);
    return new Response(html, {status: 200, headers: kept.headers});
  }
}
{% else %}"use strict";
// Kill switch (SERVICE_WORKER_ENABLED=false): delete every cache, unregister, reload the pages.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) { await caches.delete(key); }
    await self.registration.unregister();
    for (const client of await self.clients.matchAll({type: "window"})) { client.navigate(client.url); }
  })());
});
{% endif %}
