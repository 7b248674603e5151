import type { AgentCommand, AgentEvent, AgentState } from '@app/domain';
import { AgentCommandService, type CommandEnvelope, AgentRepository, SchedulerStepService } from '@app/application';
import { agentStateDecider } from '@app/core';
import { FixedClock } from '@app/platform';
import { PostgresSnapshotStore } from '@app/read-models';
import { freshId } from '../../support/postgres';
import { cli, seededDeployment } from './support/cli-harness';

const plan = (id: string) => ({
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: '',
  preview_complete: true,
});

/**
 * `agent-runtime archive` (docs/decisions/0034) on a stream the real scheduler step wrote: the
 * completed item leaves the live state, and `replay` still reproduces every recorded decision.
 */
describe('the CLI archiving completed work items', () => {
  const deployment = seededDeployment('cli_archive');
  const agent = freshId('arch');
  const run = (argv: string[]) => cli(argv, deployment.env(), deployment.work);
  let completedAt = '';

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
      await send({ type: 'CreateWorkItem', data: { work_item_id: id, objective: id, plan_artifact: plan(id) } });
    await send({ type: 'CompleteWorkItem', data: { work_item_id: 'w-1' } });
    completedAt = clock.now().toISOString();
    clock.advance(1000);
    await steps.settle(agent);
  });

  it('refuses a missing or doubled cut-off (exit 2) and an unknown agent (exit 4)', async () => {
    expect((await run(['archive', agent])).code).toBe(2);
    expect((await run(['archive', agent, '--before', completedAt, '--older-than', '1d'])).code).toBe(2);
    expect((await run(['archive', agent, '--before', 'yesterday'])).code).toBe(2);
    expect((await run(['archive', freshId('ghost'), '--older-than', '1s'])).code).toBe(4);
  });

  it('archives the completed item, then records nothing more; replay still reproduces every decision', async () => {
    const before = new Date(Date.parse(completedAt) + 1).toISOString();
    const first = await run(['archive', agent, '--before', before]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ agent_id: agent, archived: true, work_item_ids: ['w-1'] });
    const again = await run(['archive', agent, '--before', before]);
    expect(JSON.parse(again.stdout)).toMatchObject({ archived: false, work_item_ids: [] });
    const replay = await run(['replay', agent, '--json']);
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ agent_id: agent, ok: true, mismatches: 0 });
    expect(JSON.parse(replay.stdout).decisions).toBeGreaterThanOrEqual(1);
  });
});
