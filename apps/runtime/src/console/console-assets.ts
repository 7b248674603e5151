import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';

/** Content types of what `vite build` writes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The page may load only its own scripts and styles and talk only to this origin: no inline
 * script, no framing, no third-party anything (the token lives in this page's session storage).
 */
export const CONSOLE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export type ConsoleFile = { body: Buffer; contentType: string; cacheControl: string };

/** `<repo>/dist/console`: the nearest folder above this file holding package.json is the repo (source and built layouts alike). */
export function defaultConsoleRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'console');
    if (dirname(dir) === dir) return join(process.cwd(), 'dist', 'console');
  }
}

/** The built console (`npm run build:console`): files under one root, never outside it. */
export class ConsoleAssets {
  readonly root: string;

  constructor(root: string = defaultConsoleRoot()) {
    this.root = resolve(root);
  }

  get built(): boolean {
    return existsSync(join(this.root, 'index.html'));
  }

  /**
   * The file for a path under /console/ (already without the prefix), or null. Paths without an
   * extension are the single page's own routes: they get index.html.
   */
  async file(relativePath: string): Promise<ConsoleFile | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(relativePath);
    } catch {
      return null;
    }
    if (decoded.includes('\0') || decoded.split('/').some((part) => part === '..')) return null;
    const wanted = decoded === '' || extname(decoded) === '' ? 'index.html' : decoded;
    const path = resolve(this.root, wanted);
    if (!path.startsWith(this.root + sep)) return null;
    try {
      if (!statSync(path).isFile()) return null;
      const body = await readFile(path);
      const immutable = wanted.startsWith('assets/');
      return {
        body,
        contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
        cacheControl: immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      };
    } catch {
      return null;
    }
  }
}
