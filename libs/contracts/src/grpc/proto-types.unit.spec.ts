import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { GENERATED_DIR, generateProtoTypes, generatorMissing } from './proto-types';

/** Every file under `dir` with its text, by path relative to `dir`. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = readFileSync(path, 'utf8');
  }
  return out;
}

describe('the generated gRPC message types', () => {
  const missing = generatorMissing();

  if (missing !== null) {
    it('cannot be checked without the generator', () => {
      process.stdout.write(`SKIPPED: generated gRPC types not compared with the .proto: ${missing}\n`);
    });
    return;
  }

  it('are what `npm run proto:generate` writes from the .proto today (regenerate after changing it)', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'proto-types-'));
    try {
      generateProtoTypes(fresh);
      const expected = tree(fresh);
      const committed = tree(GENERATED_DIR);
      expect(Object.keys(committed).sort()).toEqual(Object.keys(expected).sort());
      for (const [file, text] of Object.entries(expected))
        expect({ file, text: committed[file] }).toEqual({ file, text });
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
