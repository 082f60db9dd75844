import { paths } from './paths';

/**
 * The public pages whose markup the build writes into a copy of index.html (vite.config.ts, by
 * prerender.tsx), so their first paint needs only the HTML and the CSS; React then hydrates it
 * (main.tsx). Each entry is the page path and the file under dist/pages/ that the server sends for
 * it (src/server/plugins/spa.ts). A module of its own, without React, so the browser tests read
 * the same list (e2e/foundation.spec.ts).
 */
export const prerenderedPages = [
  { path: paths.landing, file: 'index.html' },
  { path: paths.login, file: 'login.html' },
  { path: paths.register, file: 'register.html' },
] as const;
