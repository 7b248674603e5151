import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { RuntimeClient, RuntimeApiError } from '@agent-runtime/client';
import { projectNode } from '../support/node-binary';

const ROOT = join(__dirname, '..', '..');
const PACKAGE = join(ROOT, 'packages', 'client');

/** Every file under `dir`, by its path relative to `dir`. */
function files(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return found;
}

describe('the client package', () => {
  it('is importable by its name', () => {
    const client = new RuntimeClient({ url: 'http://127.0.0.1:1', token: 't' });
    expect(typeof client.createWorkItem).toBe('function');
    expect(new RuntimeApiError({ code: 'not_found', status: 404, message: 'm' })).toBeInstanceOf(Error);
    client.close();
  });

  it('commits exactly what its generators make of docs/openapi.json and the .proto (npm run client:generate)', () => {
    const out = mkdtempSync(join(tmpdir(), 'client-generated-'));
    try {
      execFileSync(projectNode(), [join(PACKAGE, 'scripts', 'generate.cjs'), 'all', '--out', out], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const expected = files(join(out, 'src', 'generated'));
      const committed = files(join(PACKAGE, 'src', 'generated'));
      expect([...committed.keys()].sort()).toEqual([...expected.keys()].sort());
      const stale = [...expected].filter(([path, text]) => committed.get(path) !== text).map(([path]) => path);
      expect(stale).toEqual([]);
      expect(readFileSync(join(PACKAGE, 'proto', 'agent_runtime.proto'), 'utf8')).toBe(
        readFileSync(join(ROOT, 'libs', 'contracts', 'proto', 'agent_runtime.proto'), 'utf8'),
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it('builds, and its built output loads with a plain require of the package name', () => {
    execFileSync(projectNode(), [join(PACKAGE, 'scripts', 'generate.cjs'), 'proto'], { stdio: 'pipe' });
    execFileSync(
      projectNode(),
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(PACKAGE, 'tsconfig.build.json')],
      {
        stdio: 'pipe',
      },
    );
    const script = [
      "const client = require('@agent-runtime/client');",
      "const runtime = new client.RuntimeClient({ url: '127.0.0.1:1', transport: 'grpc' });",
      'runtime.close();',
      "process.stdout.write(JSON.stringify({ main: require.resolve('@agent-runtime/client'), exports: Object.keys(client).sort() }));",
    ].join('\n');
    const loaded = JSON.parse(execFileSync(projectNode(), ['-e', script], { cwd: ROOT, encoding: 'utf8' }));
    expect(relative(ROOT, loaded.main)).toBe(join('packages', 'client', 'dist', 'index.js'));
    expect(loaded.exports).toEqual(expect.arrayContaining(['RuntimeClient', 'RuntimeApiError', 'RuntimeNetworkError']));
  }, 120_000);
});
