import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The operator console: a Preact single page built to dist/console, served by the runtime at
 * /console. `npm run console:dev` serves it with a proxy to a runtime on :3000.
 */
export default defineConfig({
  root: here('.'),
  base: '/console/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    // The CSP allows no inline script: keep everything in files.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/v1': process.env.RUNTIME_URL ?? 'http://127.0.0.1:3000' } },
});
