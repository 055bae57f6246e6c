// The service worker of the table app: an offline shell. It keeps the
// app's own files (the page, its script, styles, manifest and icon) and
// answers them from the network first, from the copy when offline. It
// never keeps or answers anything else: API answers, the event stream and
// the docs always go to the server.
const SHELL = 'treasury-shell-v1';
const FILES = ['/', '/app/app.js', '/app/app.css', '/app/manifest.webmanifest', '/app/icon.svg'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(SHELL).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== SHELL).map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin || !FILES.includes(url.pathname)) return;
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok) {
      const copy = res.clone();
      caches.open(SHELL).then((c) => c.put(url.pathname, copy));
    }
    return res;
  }).catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())));
});
