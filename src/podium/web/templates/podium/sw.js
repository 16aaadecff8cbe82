// Podium's service worker (served at /sw.js by podium.web.kernel.offline): keeps the desk
// pages a person opened and Podium's own static files, and serves them when the network is
// gone. It never sends or keeps a write: taps wait in the page's outbox (podium/offline.js).
"use strict";
const CACHE = "podium-desk-{{ version }}";
const ASSETS = [{% for asset in assets %}"{{ asset|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // Drops the caches of earlier releases (their static files are gone).
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("podium-desk-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

function isDesk(url) {
  return url.origin === self.location.origin && /^\/([a-z]{2}\/)?desk\//.test(url.pathname);
}

// A desk page: the network first (kept for later), the kept copy when the network is gone; a
// search the phone never made offline falls back to the page without its query.
async function deskPage(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && !answer.redirected) { cache.put(request, answer.clone()); }
    return answer;
  } catch (error) {
    // Django varies its pages on the cookie and the language: one phone, one person's copy.
    const kept = (await cache.match(request, { ignoreVary: true })) ||
      (await cache.match(request, { ignoreVary: true, ignoreSearch: true }));
    if (kept) { return kept; }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (request.mode === "navigate" && isDesk(url)) {
    event.respondWith(deskPage(request));
  } else if (url.origin === self.location.origin && url.pathname.startsWith("{{ static_url|escapejs }}")) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then((kept) => kept || fetch(request)));
  }
});
