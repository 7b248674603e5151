import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsoleAssets, defaultConsoleRoot } from './console-assets';

describe('the console assets on disk', () => {
  let base: string;
  let assets: ConsoleAssets;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'console-assets-'));
    mkdirSync(join(base, 'console', 'assets'), { recursive: true });
    writeFileSync(join(base, 'console', 'index.html'), '<!doctype html>');
    writeFileSync(join(base, 'console', 'assets', 'index-abc.js'), 'export {}');
    writeFileSync(join(base, 'secret.txt'), 'outside');
    assets = new ConsoleAssets(join(base, 'console'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('serves index.html for the root and for extensionless page routes, never cached', async () => {
    for (const path of ['', 'agents', 'agents/a-1']) {
      expect(await assets.file(path)).toMatchObject({
        contentType: 'text/html; charset=utf-8',
        cacheControl: 'no-cache',
      });
    }
  });

  it('serves hashed assets as immutable with their content type', async () => {
    const file = await assets.file('assets/index-abc.js');
    expect(file).toMatchObject({
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(file?.body.toString()).toBe('export {}');
  });

  it.each([
    '../secret.txt',
    '..%2Fsecret.txt',
    'assets/../../secret.txt',
    '%2e%2e/secret.txt',
    'assets/nope.js',
    'x%00.js',
    '%E0%A4%A.js',
  ])('finds nothing for %s', async (path) => {
    expect(await assets.file(path)).toBeNull();
  });

  it('knows whether the console was built', () => {
    expect(assets.built).toBe(true);
    expect(new ConsoleAssets(join(base, 'missing')).built).toBe(false);
  });

  it('looks for the build in dist/console of the repository, from the source and the built layout alike', () => {
    const repo = join(__dirname, '..', '..', '..', '..');
    expect(defaultConsoleRoot()).toBe(join(repo, 'dist', 'console'));
    expect(defaultConsoleRoot(join(repo, 'dist', 'apps', 'runtime', 'src', 'console'))).toBe(
      join(repo, 'dist', 'console'),
    );
  });
});
