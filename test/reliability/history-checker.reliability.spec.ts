import { randomUUID } from 'node:crypto';
import { agentStream } from '@app/core';
import { uniqueIds } from './scenarios/scenario';
import { AckLog } from './support/ack-log';
import { checkHistory } from './support/history';
import { type Deployment, startDeployment } from './support/in-process';
import { registerAgents, runLoad } from './support/workload';

jest.setTimeout(60_000);

/** The checker itself: a clean history passes, and each kind of damage is named and counted. */
describe('the history checker', () => {
  let deployment: Deployment;
  let agents: string[];
  beforeAll(async () => {
    deployment = await startDeployment('checker');
    agents = uniqueIds('checked', 2);
    await registerAgents(deployment.client, agents);
    await runLoad(deployment.client, agents, { workers: 3, commands: 30 });
  });
  afterAll(() => deployment?.close());

  it('passes a clean history', async () => {
    const report = await deployment.check();
    expect(report).toMatchObject({ lost: 0, duplicated: 0, skipped: 0, problems: [] });
    expect(report.acked).toBe(32);
    expect(report.rebuiltRows).toBeGreaterThan(0);
  });

  it('counts an acknowledged command that is not stored as lost', async () => {
    const log = new AckLog();
    log.record(
      { key: 'never-stored', agent: agents[0], method: 'POST', path: '/x', body: {}, appends: true },
      { status: 201, body: { revision: '3' } },
    );
    const report = await checkHistory({ url: deployment.url, log, projection: null });
    expect(report.lost).toBe(1);
    expect(report.problems).toEqual([expect.stringContaining('never-stored')]);
  });

  it('names a projector position applied twice or never, and a read model that differs from a rebuild', async () => {
    const { rows } = await deployment.pool.query(
      'SELECT position FROM reliability_apply_log ORDER BY position LIMIT 2',
    );
    await deployment.pool.query("INSERT INTO reliability_apply_log (runner, position) VALUES ('tampered', $1)", [
      rows[0].position,
    ]);
    await deployment.pool.query('DELETE FROM reliability_apply_log WHERE position = $1', [rows[1].position]);
    await deployment.pool.query("UPDATE agents SET posture = 'tampered' WHERE agent_id = $1", [agents[0]]);
    const report = await deployment.check();
    expect(report).toMatchObject({ duplicated: 1, skipped: 1 });
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`position ${rows[0].position} applied 2 times`),
        expect.stringContaining('positions never applied'),
        expect.stringMatching(/read model differs from a rebuild: agents: .*changed 1/),
      ]),
    );
  });

  it('names a command whose events were appended a second time', async () => {
    const events = await deployment.store.readStream(agentStream(agents[1]));
    const first = events[1];
    const again = [{ id: randomUUID(), type: first.type, data: first.data, metadata: first.metadata }];
    await deployment.store.appendToStream(agentStream(agents[1]), again, events[events.length - 1].revision);
    const report = await checkHistory({ url: deployment.url, log: deployment.log, projection: null });
    expect(report.duplicated).toBe(1);
    expect(report.problems).toEqual(
      expect.arrayContaining([expect.stringContaining(`command ${String(first.metadata.command_id)} applied again`)]),
    );
  });
});
