import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { projectNode } from '../support/node-binary';

/*
 * packages/client stands alone (.dependency-cruiser.cjs, `client-package-stands-alone`): it
 * holds in the tree, and a client file reaching into libs/ or apps/ is reported.
 */
const ROOT = join(__dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CRUISE = join(__dirname, 'support', 'cruise.mjs');

interface Violation {
  rule: string;
  from: string;
  to: string;
}

async function cruise(cwd: string, paths: string[]): Promise<{ modules: number; violations: Violation[] }> {
  const { stdout } = await promisify(execFile)(projectNode(), [CRUISE, CONFIG, ...paths], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

describe('the client package rule', () => {
  it('holds in the tree: packages/client imports nothing of libs/ or apps/', async () => {
    const { modules, violations } = await cruise(ROOT, ['packages']);
    expect(modules).toBeGreaterThan(20);
    expect(violations).toEqual([]);
  }, 60_000);

  it('reports a client file importing a library or an app', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-rule-'));
    try {
      const { compilerOptions } = require(join(ROOT, 'tsconfig.json')) as {
        compilerOptions: { paths: Record<string, string[]> };
      };
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({
          compilerOptions: { baseUrl: '.', moduleResolution: 'node', paths: compilerOptions.paths },
        }),
        'libs/core/src/index.ts': "export const core = 'core';\n",
        'apps/runtime/src/main.ts': "export const main = 'main';\n",
        'packages/client/src/index.ts':
          "import { core } from '@app/core';\nimport { main } from '../../../apps/runtime/src/main';\nexport const client = [core, main];\n",
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), text);
      }
      const { violations } = await cruise(dir, ['packages']);
      expect(
        violations
          .filter((v) => v.rule === 'client-package-stands-alone')
          .map((v) => v.to)
          .sort(),
      ).toEqual(['apps/runtime/src/main.ts', 'libs/core/src/index.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
