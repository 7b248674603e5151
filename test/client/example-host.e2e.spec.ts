import { RuntimeClient } from '@agent-runtime/client';
import { freshId, isolatedDatabaseUrl } from '@app/read-models/testing';
import { spawnTs } from '../reliability/support/service-process';
import { startTestApp, type TestApp } from '../support/app';

/*
 * `npm run example:host` as a child process: it starts the runtime in its own process (on a schema
 * of its own here), runs the scripted agent to its completed work item and exits 0. The audit is
 * read afterwards through a runtime on the same schema.
 */
/** The script as `npm run example:host` runs it (ts-node, here with swc; no type check), on the lockfile's Node. */
function runExample(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawnTs('tools/example-host.ts', env);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

describe('npm run example:host', () => {
  const agent = freshId('example');
  let databaseUrl: string;
  let app: TestApp | undefined;

  beforeAll(async () => {
    databaseUrl = await isolatedDatabaseUrl('example');
  });
  afterAll(() => app?.close());

  it('runs the scripted agent to its completed work item and exits 0; the audit shows the plan, the wait and the report', async () => {
    const { code, output } = await runExample({
      DATABASE_URL: databaseUrl,
      EXAMPLE_AGENT_ID: agent,
      EXAMPLE_TIMER_MS: '500',
      EXAMPLE_TIME_LIMIT_MS: '40000',
      LOG_LEVEL: 'error',
    });
    expect({ code, output }).toMatchObject({ code: 0 });
    expect(output).toMatch(/console: http:\/\/127\.0\.0\.1:\d+\/console/);
    expect(output).toContain('work item release-notes completed');

    app = await startTestApp({ tokens: `tok-example=${agent}`, env: { DATABASE_URL: databaseUrl } });
    const client = new RuntimeClient({ url: app.baseUrl, token: 'tok-example', headers: { connection: 'close' } });
    const events = (await client.readEvents(agent, { limit: 1000 })).items as Array<{ type: string; data: any }>;
    const types = events.map((e) => e.type);
    for (const type of [
      'WorkItemCreated',
      'WorkItemPicked',
      'WaitingIntentCreated',
      'TimerFired',
      'WorkItemCompleted',
    ]) {
      expect(types).toContain(type);
    }
    expect(events.find((e) => e.type === 'WaitingIntentCreated')?.data).toMatchObject({ wake: 'timer' });
    expect(events.filter((e) => e.type === 'TurnTerminal').map((e) => e.data.terminal_kind)).toEqual([
      'completed',
      'completed',
    ]);
    expect(types).toContain('WorkItemReportPromoted');
    expect(await client.getWorkItem(agent, 'release-notes')).toMatchObject({
      state: 'completed',
      result_summary: expect.stringContaining('Release notes for v1.2'),
    });
    client.close();
  }, 150_000);
});
