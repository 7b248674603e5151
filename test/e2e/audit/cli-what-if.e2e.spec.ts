import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCommand, AgentEvent, AgentState } from '@app/domain';
import { AgentCommandService, type CommandEnvelope, AgentRepository, SchedulerStepService } from '@app/application';
import { agentStateDecider } from '@app/core';
import { FixedClock } from '@app/platform';
import { PostgresSnapshotStore } from '@app/read-models';
import { freshId } from '../../support/postgres';
import { cli, seededDeployment } from './support/cli-harness';

const plan = (agent: string, id: string) => ({
  path: `/h/${agent}/work-items/${id}/plan.md`,
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: '',
  preview_complete: true,
});

const CLASSES = [
  'current_runnable',
  'triggered_blocked',
  'queued_runnable',
  'waiting_for_operator',
  'blocked',
  'completed_recent',
];

/**
 * `what-if` (issue 19 item 7) and `explain --item` (item 5) on a stream the real scheduler step
 * recorded: an agent focused on w-1 with w-2 queued. A policy that ranks queued work before the
 * focus changes the recorded continue_active decision into queued_available for w-2, side by side;
 * the runtime's own ranking changes nothing; an invalid policy is refused with every error named.
 */
describe('the CLI evaluating other scheduler settings on recorded decisions', () => {
  const deployment = seededDeployment('cli_what_if');
  const agent = freshId('whatif');
  const run = (argv: string[]) => cli(argv, deployment.env(), deployment.work);
  const policy = (name: string, value: unknown) => {
    writeFileSync(join(deployment.work, name), typeof value === 'string' ? value : JSON.stringify(value));
    return name;
  };

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
    for (const id of ['w-1', 'w-2'])
      await send({ type: 'CreateWorkItem', data: { work_item_id: id, objective: id, plan_artifact: plan(agent, id) } });
    await send({ type: 'PickWorkItem', data: { work_item_id: 'w-1' } });
    await steps.settle(agent);
  });

  it('shows the decision a queued-first ranking would change, side by side, and counts it', async () => {
    const queuedFirst = policy('queued-first.json', {
      ranking: ['queued_runnable', ...CLASSES.filter((c) => c !== 'queued_runnable')].map((cls) => ({ class: cls })),
    });
    const text = await run(['what-if', agent, '--policy', queuedFirst]);
    expect(text).toMatchObject({ code: 0 });
    expect(text.stdout).toMatch(/≠ r\d+ /);
    expect(text.stdout).toMatch(/reason +continue_active +queued_available/);
    expect(text.stdout).toMatch(/work_item_id +w-1 +w-2/);
    expect(text.stdout).toMatch(/\d+ decision points?, 1 would differ\n$/);
    const json = JSON.parse((await run(['what-if', agent, '--policy', queuedFirst, '--json'])).stdout);
    expect(json).toMatchObject({ agent_id: agent, differing: 1, not_reproduced: 0 });
    expect(json.entries).toEqual([
      expect.objectContaining({
        reproduced: true,
        current: expect.objectContaining({ kind: 'EmitSystemTick', reason: 'continue_active', work_item_id: 'w-1' }),
        policy: expect.objectContaining({ kind: 'EmitSystemTick', reason: 'queued_available', work_item_id: 'w-2' }),
      }),
    ]);
  });

  it('shows nothing for the runtime own settings', async () => {
    const same = policy('same.json', { ranking: CLASSES.map((cls) => ({ class: cls })), lease_ttl_ms: null });
    const result = await run(['what-if', agent, '--policy', same]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('≠');
    expect(result.stdout).toContain(
      '0 would differ: the policy decides as the runtime settings at every recorded point',
    );
  });

  it('refuses a missing, malformed or invalid policy (exit 2), naming every error', async () => {
    expect((await run(['what-if', agent])).code).toBe(2);
    expect(await run(['what-if', agent, '--policy', 'nope.json'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not found'),
    });
    expect(await run(['what-if', agent, '--policy', policy('bad.json', '{ranking')])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('is not JSON'),
    });
    const invalid = await run([
      'what-if',
      agent,
      '--policy',
      policy('invalid.json', { lease_ttl_ms: 1, colour: 'red' }),
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('policy.colour: unknown field');
    expect(invalid.stderr).toContain('lease_ttl_ms: null');
  });

  it('explain --item prints the why-not view of one item from the store', async () => {
    const text = await run(['explain', agent, '--item', 'w-2']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('work item w-2: ');
    expect(text.stdout).toMatch(/ 7 queued_available .*<- the item stands here/);
    const json = JSON.parse((await run(['explain', agent, '--item', 'w-2', '--json'])).stdout);
    expect(json).toMatchObject({ agent_id: agent, work_item_id: 'w-2', standing: { rung: 7 } });
    expect(await run(['explain', agent, '--item', 'w-none'])).toMatchObject({
      code: 4,
      stderr: expect.stringContaining('work item w-none not found'),
    });
  });
});
