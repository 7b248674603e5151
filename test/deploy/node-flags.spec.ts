import { readFileSync } from 'node:fs';
import { fromRepoRoot } from '@app/core';
import { runtimeNodeFlags, runtimeStartCommand } from '../../bench/support/node-flags';

/**
 * The runtime runs with the same Node flags wherever it is started as deployed (docs/decisions/0057):
 * `npm start`, the image's CMD, and the benchmarks that measure it (`npm run bench` hosts the
 * runtime in its own process; a figure that starts it as a child passes the flags).
 */
const benchScript = (
  JSON.parse(readFileSync(fromRepoRoot('package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts.bench;

describe('the Node flags of the runtime', () => {
  it('npm start sizes V8 helper threads to the machine', () => {
    expect(runtimeNodeFlags()).toContain('--v8-pool-size=0');
  });

  it("the Dockerfile's CMD has the flags of npm start", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(fromRepoRoot('Dockerfile'), 'utf8'));
    expect(cmd).not.toBeNull();
    const words = JSON.parse(cmd![1]) as string[];
    expect(words[0]).toMatch(/node$/);
    expect(words[words.length - 1]).toBe(runtimeStartCommand().entry);
    expect(words.slice(1, -1)).toEqual(runtimeNodeFlags());
  });

  it('npm run bench runs with them (the runtime it measures lives in its process)', () => {
    const benchFlags = benchScript.split(/\s+/).filter((word) => word.startsWith('--'));
    for (const flag of runtimeNodeFlags()) expect(benchFlags).toContain(flag);
  });
});
