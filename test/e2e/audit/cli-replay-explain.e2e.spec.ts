import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCommand, AgentEvent, AgentState } from '@app/domain';
import { AgentCommandService, type CommandEnvelope, AgentRepository, SchedulerStepService } from '@app/application';
import { agentStateDecider, fromRepoRoot } from '@app/core';
import { FixedClock } from '@app/platform';
import { PostgresSnapshotStore } from '@app/read-models';
import { freshId } from '../../support/postgres';
import { cli, exportLines, seededDeployment } from './support/cli-harness';

const plan = (agent: string, id: string) => ({
  path: `/h/${agent}/work-items/${id}/plan.md`,
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: '',
  preview_complete: true,
});

describe('the CLI replaying and explaining scheduler decisions', () => {
  const deployment = seededDeployment('cli_replay');
  const env = () => deployment.env();
  const agent = freshId('sched');
  const run = (argv: string[]) => cli(argv, env(), deployment.work);

  // A stream written by the real scheduler step (the worker's and the activation's), on a clock the spec moves.
  beforeAll(async () => {
    const clock = new FixedClock(new Date());
    const repository = new AgentRepository<AgentState, AgentEvent>(
      deployment.store,
      new PostgresSnapshotStore(deployment.pool),
      agentStateDecider,
    );
    const commands = new AgentCommandService(repository, clock);
    const steps = new SchedulerStepService(commands, clock);
    const envelope = (): CommandEnvelope => ({
      agentId: agent,
      caller: { tokenName: 'host', agents: [agent], admin: false },
    });
    const send = async (command: Omit<AgentCommand, 'meta'>) => {
      const e = envelope();
      clock.advance(1000);
      await commands.run(e, { ...command, meta: commands.meta(e) } as AgentCommand, () => ({}));
    };
    await send({ type: 'RegisterAgent', data: { agent_id: agent } });
    await send({
      type: 'CreateWorkItem',
      data: { work_item_id: 'w-1', objective: 'write the parser', plan_artifact: plan(agent, 'w-1') },
    });
    await send({ type: 'PickWorkItem', data: { work_item_id: 'w-1' } });
    await steps.settle(agent);
    clock.advance(1000);
    const turnId = (await steps.step(agent, { activation: { envelope: envelope(), lease_ttl_ms: 60_000 } }))!.state
      .open_turn_id!;
    await send({
      type: 'RecordRound',
      data: {
        turn_id: turnId,
        round_id: 'r-1',
        text: 'Done: the parser works.',
        tool_calls: [{ tool_call_id: 'tc-1', name: 'shell' }],
      },
    });
    await send({ type: 'CompleteWorkItem', data: { work_item_id: 'w-1', round_id: 'r-1' } });
    await send({
      type: 'TurnTerminal',
      data: { turn_id: turnId, terminal_kind: 'completed', last_assistant_message: 'bye' },
    });
    clock.advance(1000);
    await steps.settle(agent);
    clock.advance(1000);
    await steps.settle(agent);
  });

  describe('replay', () => {
    it('reproduces every decision the scheduler recorded (exit 0)', async () => {
      const result = await run(['replay', agent]);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('using Postgres from DATABASE_URL');
      const marks = result.stdout.split('\n').filter((line) => /^[✓✗] r\d+/.test(line));
      expect(marks.length).toBeGreaterThanOrEqual(4);
      expect(marks.every((line) => line.startsWith('✓'))).toBe(true);
      expect(result.stdout).toMatch(/✓ r\d+ .* EmitSystemTick continue_active, work_item w-1/);
      expect(result.stdout).toContain(`${marks.length} decisions, ${marks.length} match, 0 mismatches`);
      expect(JSON.parse((await run(['replay', agent, '--json'])).stdout)).toMatchObject({
        agent_id: agent,
        ok: true,
        mismatches: 0,
        decisions: marks.length,
      });
    });

    it('reports a tampered recorded decision and exits 8, from an export and from the store', async () => {
      expect((await run(['export', agent, 'tampered'])).code).toBe(0);
      const dir = join(deployment.work, 'tampered');
      const lines = exportLines(dir);
      const tick = lines.find(
        (e) => e.type === 'SchedulerDecisionRecorded' && e.data.decision.kind === 'EmitSystemTick',
      );
      tick.data.decision.reason = 'queued_available';
      writeFileSync(join(dir, 'events.jsonl'), lines.map((e) => `${JSON.stringify(e)}\n`).join(''));
      const fromDir = await run(['replay', '--from-dir', 'tampered']);
      expect(fromDir.code).toBe(8);
      expect(fromDir.stdout).toContain(`✗ r${tick.revision}`);
      expect(fromDir.stdout).toContain('    reason: recorded "queued_available", recomputed "continue_active"');
      expect(fromDir.stdout).toMatch(/\d+ decisions, \d+ match, 1 mismatch: /);
      const copy = freshId('tampered');
      expect((await run(['import', 'tampered', '--as', copy])).code).toBe(0);
      const fromStore = await run(['replay', copy, '--json']);
      expect(fromStore.code).toBe(8);
      expect(JSON.parse(fromStore.stdout)).toMatchObject({
        ok: false,
        mismatches: 1,
        entries: expect.arrayContaining([
          expect.objectContaining({ revision: tick.revision, differences: ['reason'] }),
        ]),
      });
    });

    it('says an unknown agent is unknown (exit 4)', async () => {
      expect(await run(['replay', 'nobody-here'])).toMatchObject({
        code: 4,
        stderr: expect.stringContaining('agent nobody-here not found'),
      });
    });
  });

  describe('explain', () => {
    it('explains the end of the stream at the recorded_at of its last event', async () => {
      const events = await deployment.store.readStream(`agent-${agent}`);
      const result = await run(['explain', agent, '--json']);
      expect(result.code).toBe(0);
      const reply = JSON.parse(result.stdout);
      expect(reply).toMatchObject({
        agent_id: agent,
        revision: events.length - 1,
        now: events[events.length - 1].recorded_at,
        posture: 'asleep',
        work_items: [],
      });
      expect(reply.decision).toMatchObject({ kind: 'StayIdle', reason: 'asleep', idempotency_key: null });
      const text = await run(['explain', agent]);
      expect(text.stdout).toContain('decision: StayIdle (asleep)');
      expect(text.stdout).toContain('open work items (0; 1 completed)');
    });

    it('explains an earlier revision: the focused item before its first tick', async () => {
      const events = await deployment.store.readStream(`agent-${agent}`);
      const picked = events.findIndex((e) => e.type === 'WorkItemPicked');
      const result = await run(['explain', agent, '--at', String(picked)]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`at revision ${picked} of 0..${events.length - 1}`);
      expect(result.stdout).toContain(`now: ${events[picked].recorded_at} (recorded_at of revision ${picked})`);
      expect(result.stdout).toContain('decision: EmitSystemTick (continue_active)');
      expect(result.stdout).toContain('idempotency key: work_queue:continue_active:w-1:1');
      expect(result.stdout).toMatch(/w-1 \(focus\) {2}readiness runnable, scheduling runnable, class current_runnable/);
    });

    it('refuses an --at beyond the stream and an unknown agent (exit 4)', async () => {
      expect(await run(['explain', agent, '--at', '9999'])).toMatchObject({
        code: 4,
        stderr: expect.stringContaining('--at 9999 is beyond the stream'),
      });
      expect(await run(['explain', 'nobody-here'])).toMatchObject({
        code: 4,
        stderr: expect.stringContaining('agent nobody-here not found'),
      });
    });

    it('reads a fixture directory without any store (--from-dir)', async () => {
      const dir = fromRepoRoot('fixtures', 'scheduler', 'decision-wait-for-task');
      const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
      const result = await cli(['explain', '--from-dir', dir, '--json'], {}, deployment.work);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout).decision).toMatchObject({
        kind: 'WaitForTask',
        task_id: 't-build',
        evidence: expected.decision.evidence,
      });
    });
  });
});
