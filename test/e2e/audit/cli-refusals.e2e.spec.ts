import { RefusalLog } from '@app/application';
import { cli, seededDeployment } from './support/cli-harness';

/** ADR 0032 from the CLI: `refusals` prints the audit of commands that wrote nothing, newest first. */
describe('the CLI refusals command', () => {
  const deployment = seededDeployment('cli_refusals');

  it('lists the refusals of one agent or of all, newest first, within --limit', async () => {
    const log = new RefusalLog(deployment.pool);
    const at = '2026-01-01T00:00:00.000Z';
    const refusal = {
      actor: 'ops:operator',
      route: 'Control',
      code: 'no_op',
      reason: 'no_op',
      message: 'changed nothing',
      at,
    };
    log.record({ ...refusal, agent_id: deployment.agent });
    log.record({
      ...refusal,
      agent_id: 'someone-else',
      route: 'UpdateWorkItem',
      code: 'not_found',
      reason: 'not_found',
    });
    log.record({
      ...refusal,
      agent_id: deployment.agent,
      route: 'CreateWorkItem',
      code: 'conflict',
      reason: 'already_exists',
    });
    await log.drained();

    const mine = await cli(['refusals', '--agent', deployment.agent], deployment.env(), deployment.work);
    expect(mine.code).toBe(0);
    expect(JSON.parse(mine.stdout)).toMatchObject({
      total: 2,
      items: [
        { route: 'CreateWorkItem', code: 'conflict', reason: 'already_exists', agent_id: deployment.agent, at },
        { route: 'Control', code: 'no_op', actor: 'ops:operator', agent_id: deployment.agent },
      ],
    });
    const newest = JSON.parse((await cli(['refusals', '--limit', '1'], deployment.env(), deployment.work)).stdout);
    expect(newest).toMatchObject({ total: 3, items: [{ route: 'CreateWorkItem' }] });
    expect(await cli(['refusals', '--agent', 'not an id'], deployment.env(), deployment.work)).toMatchObject({
      code: 2,
    });
    expect(await cli(['refusals', 'extra'], deployment.env(), deployment.work)).toMatchObject({ code: 2 });
  });
});
