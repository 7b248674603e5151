import { randomUUID } from 'node:crypto';
import { agentStream } from '@app/core';
import { createProjectionRunner } from '@app/read-models';
import { cli, seededDeployment } from './support/cli-harness';

/** ADR 0015 from the CLI: `status` and `check` show a parked agent, `dead-letters` lists and skips it (audited). */
describe('the CLI and a parked agent', () => {
  const deployment = seededDeployment('cli_dead');
  const env = () => ({ ...deployment.env(), USER: 'ops-person' });

  it('shows the parked agent in status, fails check with exit 9, and skips the letter as cli:<user>', async () => {
    const { store, pool, agent } = deployment;
    const revision = await store.streamRevision(agentStream(agent));
    const { position } = await store.appendToStream(
      agentStream(agent),
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
      revision!,
    );
    const runner = createProjectionRunner(pool, store);
    await runner.start();
    await runner.waitFor(position);
    await runner.stop();

    const status = await cli(['status'], env(), deployment.work);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^read_models\\s.*stalled at ${position}$`, 'm'));
    expect(status.stdout).toMatch(new RegExp(`^${agent}\\s+${position}\\s+${revision! + 1n}\\s`, 'm'));

    const check = await cli(['check'], env(), deployment.work);
    expect(check.code).toBe(9);
    expect(check.stderr).toContain(
      `projection read_models is stalled: 1 agent(s) parked, first dead letter at ${position}`,
    );
    expect(JSON.parse(check.stdout)).toMatchObject({
      status: 'ok',
      projections: [{ projection: 'read_models', ready: false, reason: 'projection_stalled' }],
    });

    const listed = await cli(['dead-letters', 'list'], env(), deployment.work);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({
      letters: [{ position: position.toString(), state: 'open' }],
      parked_agents: [{ agent_id: agent }],
    });
    expect(await cli(['dead-letters', 'skip', position.toString()], env(), deployment.work)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('a skip needs a reason'),
    });
    const skipped = await cli(
      ['dead-letters', 'skip', position.toString(), '--reason', 'a tool wrote it'],
      env(),
      deployment.work,
    );
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ outcome: 'skipped', actor: 'cli:ops-person' });
    expect(await cli(['dead-letters', 'retry', position.toString()], env(), deployment.work)).toMatchObject({
      code: 6,
    });
    expect(await cli(['dead-letters', 'retry', '999999'], env(), deployment.work)).toMatchObject({ code: 4 });
    const after = JSON.parse((await cli(['dead-letters', 'list'], env(), deployment.work)).stdout);
    expect(after.parked_agents).toEqual([]);
    expect(after.letters[0]).toMatchObject({
      state: 'skipped',
      resolved_by: 'cli:ops-person',
      actions: [{ action: 'skip', actor: 'cli:ops-person', reason: 'a tool wrote it' }],
    });
    expect((await cli(['check'], env(), deployment.work)).code).toBe(0);
  });
});
