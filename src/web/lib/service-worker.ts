/**
 * Registers the service worker (public/sw.js: the app shell, push alerts) once the page has
 * loaded, so it never competes with the first paint. Not in development: Vite serves modules the
 * worker must not keep.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // without a worker the app works as before: no offline shell, no push alerts
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
