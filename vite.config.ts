import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin } from 'vite';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;

/** Writes `<path>.br` and `<path>.gz` (maximum compression), or removes them if not smaller. */
async function writeCompressed(path: string): Promise<void> {
  const source = await readFile(path);
  const size = source.length;
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: size,
      },
    }),
    gzipAsync(source, { level: zlib.Z_BEST_COMPRESSION }),
  ]);
  // an old build's file of the same name (index.html) must not outlive its original
  await (br.length < size ? writeFile(`${path}.br`, br) : rm(`${path}.br`, { force: true }));
  await (gz.length < size ? writeFile(`${path}.gz`, gz) : rm(`${path}.gz`, { force: true }));
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file the build emits, once, at build time
 * (maximum compression costs nothing per request); the server hands them out with
 * @fastify/static's `preCompressed` (src/server/plugins/spa.ts).
 */
function precompress(): Plugin {
  return {
    name: 'leadflow:precompress',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(files.map((name) => writeCompressed(join(outDir, name))));
    },
  };
}

/**
 * Renders the public pages (src/web/app/prerender.tsx) into copies of the built index.html under
 * dist/pages/, compressed like the rest: their first paint then needs the HTML and the CSS only,
 * not the JavaScript. The server sends each for its own path (src/server/plugins/spa.ts).
 */
function prerender(): Plugin {
  return {
    name: 'leadflow:prerender',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options) {
      const outDir = options.dir ?? '';
      const shell = await readFile(join(outDir, 'index.html'), 'utf8');
      // the pages' modules run in Node through a Vite server (aliases, JSX) that never listens
      const server = await createServer({
        configFile: fromRoot('vite.config.ts'),
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { prerenderedPages, renderPage } = (await server.ssrLoadModule(
          '/src/web/app/prerender.tsx',
        )) as typeof import('./src/web/app/prerender');
        await mkdir(join(outDir, 'pages'), { recursive: true });
        for (const page of prerenderedPages) {
          const { title, html } = renderPage(page.path);
          let document = shell.replace(
            '<div id="root"></div>',
            () => `<div id="root">${html}</div>`,
          );
          if (document === shell) throw new Error('index.html has no empty <div id="root">');
          if (title)
            document = document.replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`);
          const path = join(outDir, 'pages', page.file);
          await writeFile(path, document);
          await writeCompressed(path);
        }
      } finally {
        await server.close();
      }
    },
  };
}

export default defineConfig({
  root: fromRoot('.'),
  publicDir: 'public',
  plugins: [react(), tailwindcss(), precompress(), prerender()],
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Entry + landing stay small; admin screens and recharts load only with their routes.
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
});
