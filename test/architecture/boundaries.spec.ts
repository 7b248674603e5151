import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The dependency directions of ARCHITECTURE.md, checked on the sources themselves (the lint
 * rules say the same; this spec fails even when lint is skipped).
 */
const ROOT = join(__dirname, '..', '..');

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !path.includes(`${join('src', 'testing')}`) ? [path] : [];
  });
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

function importsOf(dir: string): Import[] {
  return sourceFiles(join(ROOT, dir)).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(IMPORT)].map((m) => ({ file: relative(ROOT, path), specifier: m[3] ?? m[4] ?? m[5], typeOnly: Boolean(m[2]) }));
  });
}

const offending = (imports: Import[], bad: (i: Import) => boolean) => imports.filter(bad).map((i) => `${i.file} -> ${i.specifier}`);

describe('the dependency directions of the architecture', () => {
  const all = [...importsOf('libs'), ...importsOf('apps')];

  it('keeps libs/domain pure: it imports nothing outside itself', () => {
    const domain = importsOf('libs/domain');
    expect(domain.length).toBeGreaterThan(0);
    expect(offending(domain, (i) => !i.specifier.startsWith('.'))).toEqual([]);
  });

  it('keeps the EventStoreDB client in one folder', () => {
    expect(offending(all, (i) => i.specifier.startsWith('@eventstore/') && !i.file.startsWith('libs/event-store/src/eventstoredb/'))).toEqual([]);
  });

  it('lets only the Postgres adapter and the read models use pg (others may name its types)', () => {
    const allowed = (file: string) => file.startsWith('libs/event-store/src/postgres/') || file.startsWith('libs/read-models/') || file === 'libs/event-store/src/event-store.factory.ts';
    expect(offending(all, (i) => i.specifier === 'pg' && !i.typeOnly && !allowed(i.file))).toEqual([]);
  });

  it('never lets a library depend on an app', () => {
    expect(offending(importsOf('libs'), (i) => /(^|\/)apps\//.test(i.specifier))).toEqual([]);
  });

  it('keeps the event store below everything else: it imports no other library', () => {
    expect(offending(importsOf('libs/event-store'), (i) => i.specifier.startsWith('@app/'))).toEqual([]);
  });
});
