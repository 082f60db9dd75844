import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const DIST_DIR = fileURLToPath(new URL('../../../dist', import.meta.url));

/**
 * The prerendered public pages the build wrote under dist/pages/ (vite.config.ts): `index.html`
 * is the page `/`, `login.html` the page `/login`.
 */
function prerenderedPages(root: string): Map<string, string> {
  const dir = `${root}/pages`;
  const pages = new Map<string, string>();
  if (!existsSync(dir)) return pages;
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.html')) continue;
    pages.set(file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`, `pages/${file}`);
  }
  return pages;
}

/**
 * Serves the built SPA. A prerendered public page gets its own copy of index.html, any other
 * unknown page path gets index.html (the client shows its own 404 page); an unknown /api path
 * answers a JSON 404. Text files go out compressed when the client accepts it.
 */
export const spaPlugin = fp(
  async (app: FastifyInstance, opts: { distDir?: string; enabled?: boolean }) => {
    const root = opts.distDir ?? DIST_DIR;
    const hasBuild = opts.enabled !== false && existsSync(`${root}/index.html`);
    const pages = hasBuild ? prerenderedPages(root) : new Map<string, string>();
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // the build writes .br and .gz beside each text file (vite.config.ts); the best one the
        // client accepts is sent, with Vary: Accept-Encoding, the original to anyone else
        preCompressed: true,
        setHeaders(res, path) {
          // hashed assets are immutable; index.html must always be revalidated
          res.header(
            'cache-control',
            path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      // a missing asset (an old hash after a rebuild) is a 404, never index.html
      const isFile = path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path);
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !path.startsWith('/api') &&
        !isFile;
      if (hasBuild && wantsPage) {
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html')
          .sendFile(pages.get(path) ?? 'index.html', root);
      }
      return reply.status(404).send({ message: `Route ${request.method} ${path} not found` });
    });
  },
);
