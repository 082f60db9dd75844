import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const DIST_DIR = fileURLToPath(new URL('../../../dist', import.meta.url));

/**
 * Serves the built SPA. Any unknown page path gets index.html (the client shows its own 404
 * page); an unknown /api path answers a JSON 404.
 */
export const spaPlugin = fp(
  async (app: FastifyInstance, opts: { distDir?: string; enabled?: boolean }) => {
    const root = opts.distDir ?? DIST_DIR;
    const hasBuild = opts.enabled !== false && existsSync(`${root}/index.html`);
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
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
          .sendFile('index.html', root);
      }
      return reply.status(404).send({ message: `Route ${request.method} ${path} not found` });
    });
  },
);
