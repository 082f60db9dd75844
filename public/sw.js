/**
 * LeadFlow's service worker (docs/domain.md, Alerts to the agent's phone): it keeps the app shell
 * so the installed app opens without a network, shows a push alert of a new lead, and opens the
 * lead when the alert is clicked. Plain JavaScript, served as is from the site's root (its scope
 * is the whole app). The API is never cached: a lead's data always comes from the server.
 */
const SHELL_CACHE = 'leadflow-shell-v1';
const SHELL = [
  '/dashboard/leads',
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k !== SHELL_CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    // the network first (a new release's page); offline, the kept shell, which routes itself
    event.respondWith(
      fetch(request).catch(() =>
        caches.match('/dashboard/leads').then((page) => page || Response.error()),
      ),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // hashed, never changed: kept once fetched
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});

self.addEventListener('push', (event) => {
  let message = { title: 'LeadFlow', body: 'You have a new lead.', url: '/dashboard/leads' };
  try {
    if (event.data) message = { ...message, ...event.data.json() };
  } catch {
    // not JSON: the generic alert
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url },
      tag: message.url,
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/dashboard/leads', self.location.origin);
  // only the app's own pages: a push names a path, never another site
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === target.origin);
      if (!open) return self.clients.openWindow(target.href);
      // the lead opens in the app's window even where the browser refuses to bring it forward
      return open
        .focus()
        .catch(() => open)
        .then((w) => (w || open).navigate(target.href));
    }),
  );
});
