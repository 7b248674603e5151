import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFixtureCases } from '../../../../tools/scheduler-fixtures/fixture-format';
import { runCli } from '../cli';

// replay and explain on fixture directories (--from-dir): no database, so every case is cheap.

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

const cases = loadFixtureCases();
const fixture = (name: string) => cases.find((c) => c.name === name)!;

describe('explain --from-dir', () => {
  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: the decision of expected.json, and a reason for every open item',
    async (_name, c) => {
      const run = await cli(['explain', '--from-dir', c.dir, '--now', c.expected.now, '--json']);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      const reply = JSON.parse(run.stdout);
      const { links, ...decision } = c.expected.decision;
      expect(reply.decision).toEqual({ ...decision, ...links });
      expect(reply).toMatchObject({
        agent_id: c.expected.stream.slice('agent-'.length),
        revision: c.events.length - 1,
        replay_message_ids: c.expected.projection.replay_message_ids,
      });
      expect(reply.work_items.map((item: { id: string }) => item.id).sort()).toEqual(
        Object.entries(c.expected.projection.candidates)
          .filter(([cls]) => cls !== 'completed_recent')
          .flatMap(([, ids]) => ids)
          .sort(),
      );
      for (const item of reply.work_items) expect(item.why).toMatch(/^(runnable|not runnable)/);
    },
  );

  it('uses the recorded_at of the event at --at as now, and folds only up to it', async () => {
    const c = fixture('scheduler-worker-life');
    const run = await cli(['explain', '--from-dir', c.dir, '--at', '2', '--json']);
    const reply = JSON.parse(run.stdout);
    expect(reply).toMatchObject({
      revision: 2,
      now: c.events[2].recorded_at,
      now_source: 'recorded_at of revision 2',
      current_work_item_id: 'w-1',
      last_decision: null,
    });
    expect(reply.decision).toMatchObject({
      kind: 'EmitSystemTick',
      reason: 'continue_active',
      idempotency_key: 'work_queue:continue_active:w-1:1',
    });
  });

  it('prints why each item is or is not runnable, the queue head and the waits', async () => {
    const run = await cli(['explain', '--from-dir', fixture('basic-focus-queued-needs-input').dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('decision: EmitSystemTick (continue_active)');
    expect(run.stdout).toContain('idempotency key: work_queue:continue_active:w-focus:1');
    expect(run.stdout).toMatch(/w-queued .*class queued_runnable[\s\S]*runnable, not the focus: #1 of queued_runnable/);
    expect(run.stdout).toContain('not runnable: plan_status needs_input (waits for the operator)');
    expect(run.stdout).toMatch(/queue: 0 queued; empty/);
    expect(run.stdout).toMatch(/waits for:\n {2}the operator: w-input needs input/);
    // Issue 17 item 4: the closure is shown in the CLI too (the operator wait comes first).
    expect(run.stdout).toContain('closure: waiting (waiting_operator): needs_input:w-input');
  });

  it('refuses an --at beyond the stream (exit 4) and a malformed --at or --now (exit 2)', async () => {
    const dir = fixture('decision-sleep').dir;
    expect(await cli(['explain', '--from-dir', dir, '--at', '3'])).toMatchObject({
      code: 4,
      stderr: expect.stringContaining('--at 3 is beyond the stream: agent decision-sleep has revisions 0..2'),
    });
    expect((await cli(['explain', '--from-dir', dir, '--at', '-1'])).code).toBe(2);
    expect((await cli(['explain', '--from-dir', dir, '--now', 'yesterday'])).code).toBe(2);
    expect(await cli(['explain', '--from-dir', join(dir, 'nope')])).toMatchObject({
      code: 4,
      stderr: expect.stringContaining('not a fixture or export directory'),
    });
  });
});

describe('replay --from-dir', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: every recorded decision matches (exit 0)', async (_name, c) => {
    const run = await cli(['replay', '--from-dir', c.dir]);
    expect(run.code).toBe(0);
    const n = c.expected.recorded_decisions.count;
    expect(run.stdout).toContain(`${n} decisions, ${n} match, 0 mismatches`);
    expect(run.stdout).not.toContain('✗');
  });

  it('reports an edited decision field by field and exits 8', async () => {
    const c = fixture('scheduler-worker-life');
    const lines = readFileSync(join(c.dir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const target = lines.find((e) => e.type === 'SchedulerDecisionRecorded' && e.data.decision.kind === 'Sleep');
    target.data.decision = { ...target.data.decision, kind: 'StayIdle', evidence: ['queue_empty'] };
    const dir = mkdtempSync(join(tmpdir(), 'tampered-'));
    writeFileSync(join(dir, 'events.jsonl'), lines.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const run = await cli(['replay', '--from-dir', dir]);
    expect(run.code).toBe(8);
    expect(run.stdout).toContain(`✗ r${target.revision}  ${target.data.at}  StayIdle no_runnable_work`);
    expect(run.stdout).toContain('    kind: recorded "StayIdle", recomputed "Sleep"');
    expect(run.stdout).toContain('      + no_runnable_work   (recomputed only)');
    expect(run.stdout).toContain('7 decisions, 6 match, 1 mismatch: the scheduler no longer decides what was recorded');
    const json = JSON.parse((await cli(['replay', '--from-dir', dir, '--json'])).stdout);
    expect(json).toMatchObject({ ok: false, decisions: 7, mismatches: 1 });
    expect(json.entries.filter((e: { matches: boolean }) => !e.matches)).toEqual([
      expect.objectContaining({ revision: target.revision, differences: ['kind', 'evidence'] }),
    ]);
  });
});
