import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFixtureCases } from '../../../../tools/scheduler-fixtures/fixture-format';
import { runCli } from '../cli';

// explain --item and what-if on fixture directories (--from-dir): no database.

async function cli(argv: string[]) {
  let [stdout, stderr] = ['', ''];
  const io = {
    env: {},
    cwd: process.cwd(),
    stdout: (t: string) => void (stdout += t),
    stderr: (t: string) => void (stderr += t),
    stderrIsTTY: false,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

const dirOf = (name: string) => loadFixtureCases().find((c) => c.name === name)!.dir;
const policyFile = (value: unknown) => {
  const file = join(mkdtempSync(join(tmpdir(), 'why-policy-')), 'policy.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
};

describe('explain: the why-not view', () => {
  const dir = dirOf('basic-focus-queued-needs-input');

  it('adds each open item its why-not verdict, and --item prints the whole view', async () => {
    const all = await cli(['explain', '--from-dir', dir]);
    expect(all.stdout).toContain('why not: next; rung 5 (continue_active)');
    expect(all.stdout).toContain('why not: ranked behind; rung 7 (queued_available), #1 of 1; w-focus ranks before it');
    expect(all.stdout).toContain('why not: waiting; rung 9 (waits); plan_status needs_input');
    const json = JSON.parse((await cli(['explain', '--from-dir', dir, '--json'])).stdout);
    expect(json.work_items.map((i: { why_not: { verdict: string } }) => i.why_not.verdict)).toEqual([
      'next',
      'ranked_behind',
      'waiting',
    ]);
    const item = await cli(['explain', '--from-dir', dir, '--item', 'w-input']);
    expect(item.code).toBe(0);
    expect(item.stdout).toContain('work item w-input: waiting');
    expect(item.stdout).toMatch(/ 9 waits +WaitForOperator waiting_for_operator \(w-input\) <- the item stands here/);
    expect(item.stdout).toContain('  WorkItemUpdated: the operator answers: plan_status leaves needs_input');
    const itemJson = JSON.parse((await cli(['explain', '--from-dir', dir, '--item', 'w-queued', '--json'])).stdout);
    expect(itemJson).toMatchObject({ verdict: 'ranked_behind', standing: { rung: 7 }, revision: 4 });
  });

  it('refuses --item without an id (exit 2) and an unknown item (exit 4)', async () => {
    expect((await cli(['explain', '--from-dir', dir, '--item'])).code).toBe(2);
    expect(await cli(['explain', '--from-dir', dir, '--item', 'w-none'])).toMatchObject({
      code: 4,
      stderr: expect.stringContaining('work item w-none not found'),
    });
  });
});

describe('what-if --from-dir', () => {
  const dir = dirOf('scheduler-worker-life');

  it('finds no differing decision under the runtime settings, and counts the points', async () => {
    const run = await cli(['what-if', '--from-dir', dir, '--policy', policyFile({})]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\d+ decision points, 0 would differ: the policy decides as the runtime settings/);
    const json = JSON.parse((await cli(['what-if', '--from-dir', dir, '--policy', policyFile({}), '--json'])).stdout);
    expect(json).toMatchObject({ differing: 0, not_reproduced: 0, entries: [] });
  });

  it('names every error of an invalid policy (exit 2)', async () => {
    const run = await cli(['what-if', '--from-dir', dir, '--policy', policyFile({ recheck: { delay_ms: -1 } })]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('recheck.delay_ms: an integer 0..604800000');
  });
});
