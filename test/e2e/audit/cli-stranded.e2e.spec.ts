import { createProjectionRunner } from '@app/read-models';
import { cli, seededDeployment } from './support/cli-harness';

/** ADR 0036 from the CLI: `stranded` prints the stranded work of the read models, oldest first. */
describe('the CLI stranded command', () => {
  const deployment = seededDeployment('cli_stranded');
  const run = (argv: string[]) => cli(['stranded', ...argv], deployment.env(), deployment.work);

  beforeAll(async () => {
    const runner = createProjectionRunner(deployment.pool, deployment.store);
    await runner.start();
    const head = await deployment.store.headPosition();
    if (head !== null) await runner.waitFor(head);
    await runner.stop();
  });

  it('lists what is stranded at --now, by kind and agent, within --limit, and refuses bad flags', async () => {
    // The seeded agent: w-2 blocked with no wait and no recheck, m-1 queued and never decided on.
    const late = await run(['--now', '2026-01-01T01:00:00Z', '--agent', deployment.agent]);
    expect(late.code).toBe(0);
    expect(JSON.parse(late.stdout)).toMatchObject({
      total: 2,
      items: [
        { agent_id: deployment.agent, kind: 'blocked_without_wait', subject: { work_item_id: 'w-2' } },
        { agent_id: deployment.agent, kind: 'runnable_without_decision', subject: { message_id: 'm-1' } },
      ],
    });
    const early = JSON.parse((await run(['--now', '2026-01-01T00:00:30Z'])).stdout);
    expect(early.items.map((e: { kind: string }) => e.kind)).toEqual(['blocked_without_wait']);
    const kind = JSON.parse(
      (await run(['--now', '2026-01-01T01:00:00Z', '--kind', 'runnable_without_decision'])).stdout,
    );
    expect(kind).toMatchObject({ total: 1, items: [{ kind: 'runnable_without_decision' }] });
    expect(JSON.parse((await run(['--now', '2026-01-01T01:00:00Z', '--limit', '1'])).stdout).items).toHaveLength(1);
    for (const bad of [['--kind', 'lost'], ['--agent', 'not an id'], ['--limit', 'x'], ['--now', 'soon'], ['extra']])
      expect(await run(bad)).toMatchObject({ code: 2 });
  });
});
