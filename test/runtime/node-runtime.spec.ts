import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockfileNode, projectNode } from '../support/node-binary';

/**
 * The runtime comes with the lockfile (docs/decisions/0012): where `npm ci` brought a Node into
 * node_modules/.bin, the tests, the service and every child process run on that one. A slip
 * back to the system's Node (a script that calls `node` outside npm, a child spawned with a
 * bare `node`) fails here instead of passing on an end-of-life runtime.
 */
describe('the Node the project runs on', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    engines: { node: string };
    optionalDependencies: Record<string, string>;
  };
  const bundled = lockfileNode();

  it('pins one Node 24 version for every platform package, and engines allow no Node below 22', () => {
    const versions = new Set(
      Object.entries(pkg.optionalDependencies)
        .filter(([name]) => name.startsWith('node-'))
        .map(([, v]) => v),
    );
    expect(versions.size).toBe(1);
    expect([...versions][0]).toMatch(/^24\.\d+\.\d+$/);
    expect(pkg.engines.node).toBe('>=22');
  });

  if (bundled) {
    it('runs the tests on the Node that the lockfile brought', () => {
      const version = execFileSync(bundled, ['--version'], { encoding: 'utf8' }).trim();
      expect(process.version).toBe(version);
      expect(process.execPath).toBe(bundled);
      expect(version).toBe(`v${Object.values(pkg.optionalDependencies)[0]}`);
    });

    it('starts child processes on that Node too', () => {
      expect(projectNode()).toBe(bundled);
    });
  } else {
    it('runs on a supported Node where the lockfile brought none for this platform', () => {
      process.stdout.write(
        `SKIPPED: no node_modules/.bin/node for ${process.platform}-${process.arch}: the tests run on the system's ${process.version}\n`,
      );
      expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
    });
  }
});
