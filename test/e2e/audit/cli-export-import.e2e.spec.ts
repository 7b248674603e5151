import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent, AgentState } from '@app/domain';
import { AgentRepository, AgentEventsReader, derivedEventId, eventsToImport, parseJsonLines } from '@app/application';
import { agentStateDecider } from '@app/core';
import { PostgresSnapshotStore } from '@app/read-models';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { cli, exportLines as lines, seededDeployment } from './support/cli-harness';

const withoutStoreFields = ({ position: _p, recorded_at: _r, ...rest }: Record<string, unknown>) => rest;

describe('the CLI exporting and importing agent streams', () => {
  const deployment = seededDeployment('cli_io');
  const { agent } = deployment;
  const env = () => deployment.env();
  describe('export and import', () => {
    // The export every case below starts from.
    let plain: Awaited<ReturnType<typeof cli>>;
    beforeAll(async () => {
      plain = await cli(['export', agent, 'plain'], env(), deployment.work);
    });

    it('exports the stream as stored: one event per line with decimal revisions and positions, and agent.json', async () => {
      const run = plain;
      expect(run).toMatchObject({
        code: 0,
        stdout: expect.stringContaining(`exported 8 events of agent ${agent} (revisions 0..7)`),
      });
      expect(run.stderr).toContain('using Postgres from DATABASE_URL');
      const events = lines(join(deployment.work, 'plain'));
      expect(events.map((e) => e.revision)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
      expect(events[0]).toMatchObject({
        stream: `agent-${agent}`,
        type: 'AgentRegistered',
        position: expect.stringMatching(/^\d+$/),
        metadata: { schema_version: 1 },
      });
      expect(JSON.parse(readFileSync(join(deployment.work, 'plain', 'agent.json'), 'utf8'))).toMatchObject({
        agent_id: agent,
        event_count: 8,
        last_revision: '7',
        redaction: null,
      });
    });

    it('replaces message bodies and plan previews by a marker with --redact-bodies, and says so', async () => {
      const run = await cli(['export', agent, 'redacted', '--redact-bodies'], env(), deployment.work);
      expect(run.code).toBe(0);
      const text = readFileSync(join(deployment.work, 'redacted', 'events.jsonl'), 'utf8');
      expect(text).not.toMatch(/secret/);
      expect(lines(join(deployment.work, 'redacted')).find((e) => e.type === 'MessageQueued').data.body).toBe(
        '[redacted]',
      );
      expect(JSON.parse(readFileSync(join(deployment.work, 'redacted', 'agent.json'), 'utf8')).redaction).toMatchObject(
        { marker: '[redacted]', redacted_values: 3 },
      );
    });

    it('round-trips into a fresh agent id: same events apart from the agent id, derived ids and what the store assigns', async () => {
      const copy = freshId('copy');
      expect(await cli(['import', 'plain', '--as', copy], env(), deployment.work)).toMatchObject({
        code: 0,
        stdout: expect.stringContaining(`imported 8 events as agent ${copy}`),
      });
      expect((await cli(['export', copy, 'copy'], env(), deployment.work)).code).toBe(0);
      const [original, copied] = [lines(join(deployment.work, 'plain')), lines(join(deployment.work, 'copy'))];
      const retarget = (e: Record<string, any>) => ({
        ...withoutStoreFields(e),
        id: derivedEventId(copy, e.id),
        stream: `agent-${copy}`,
        data: e.data.agent_id === agent ? { ...e.data, agent_id: copy } : e.data,
      });
      expect(copied.map(withoutStoreFields)).toEqual(original.map(retarget));
    });

    it('round-trips losslessly into another deployment: identical apart from positions and recorded_at', async () => {
      const other = await isolatedDatabaseUrl('cli_other');
      const otherEnv = { DATABASE_URL: other, RUNTIME_DATA_DIR: join(deployment.work, 'data') };
      expect((await cli(['import', 'plain'], otherEnv, deployment.work)).code).toBe(0);
      expect((await cli(['export', agent, 'again'], otherEnv, deployment.work)).code).toBe(0);
      expect(lines(join(deployment.work, 'again')).map(withoutStoreFields)).toEqual(
        lines(join(deployment.work, 'plain')).map(withoutStoreFields),
      );
    });

    it('refuses to import into an existing agent (conflict) and writes nothing', async () => {
      const same = await cli(['import', 'plain'], env(), deployment.work);
      expect(same.code).toBe(6);
      expect(same.stderr).toContain(`agent ${agent}: stream agent-${agent} already holds exactly these events`);
      mkdirSync(join(deployment.work, 'other-ids'), { recursive: true });
      writeFileSync(
        join(deployment.work, 'other-ids', 'events.jsonl'),
        `${JSON.stringify({ ...lines(join(deployment.work, 'plain'))[0], id: randomUUID() })}\n`,
      );
      const other = await cli(['import', 'other-ids'], env(), deployment.work);
      expect(other.code).toBe(6);
      expect(other.stderr).toContain(
        `agent ${agent}: stream agent-${agent} exists (revision 7); import never writes into an existing agent`,
      );
      expect(await deployment.store.streamRevision(`agent-${agent}`)).toBe(7n);
    });

    it('completes an interrupted import (the stream holds a prefix of exactly these events)', async () => {
      const target = freshId('resumed');
      const { agentId, events } = parseJsonLines(readFileSync(join(deployment.work, 'plain', 'events.jsonl'), 'utf8'));
      await deployment.store.appendToStream(
        `agent-${target}`,
        eventsToImport(events, agentId, target).slice(0, 3),
        'no_stream',
      );
      const run = await cli(['import', 'plain', '--as', target], env(), deployment.work);
      expect(run).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('resumed an interrupted import at revision 3'),
      });
      expect(await deployment.store.streamRevision(`agent-${target}`)).toBe(7n);
    });

    it('refuses an export with an event newer than this code (unreadable), before writing anything', async () => {
      const dir = join(deployment.work, 'future');
      mkdirSync(dir);
      const [first] = lines(join(deployment.work, 'plain'));
      writeFileSync(
        join(dir, 'events.jsonl'),
        `${JSON.stringify({ ...first, metadata: { ...first.metadata, schema_version: 9 } })}\n`,
      );
      const target = freshId('future');
      const run = await cli(['import', 'future', '--as', target], env(), deployment.work);
      expect(run.code).toBe(7);
      expect(run.stderr).toMatch(
        /events.jsonl:1: event AgentRegistered .*schema_version 9: written by a newer version of the runtime/,
      );
      expect(await deployment.store.streamRevision(`agent-${target}`)).toBeNull();
    });

    it('imports a legacy v0 WorkItemCreated as stored, and the read path upcasts it', async () => {
      const dir = join(deployment.work, 'legacy');
      mkdirSync(dir);
      const sample = JSON.parse(
        readFileSync(join(__dirname, '../../../fixtures/events/WorkItemCreated/v0.json'), 'utf8'),
      );
      const [registered] = lines(join(deployment.work, 'plain'));
      const legacy = { ...sample, stream: registered.stream, revision: '1', data: { ...sample.data, agent_id: agent } };
      writeFileSync(join(dir, 'events.jsonl'), `${JSON.stringify(registered)}\n${JSON.stringify(legacy)}\n`);
      const target = freshId('legacy');
      expect((await cli(['import', 'legacy', '--as', target], env(), deployment.work)).code).toBe(0);
      const [, stored] = await deployment.store.readStream(`agent-${target}`);
      expect(stored.metadata.schema_version).toBe(0);
      expect(stored.data).not.toHaveProperty('plan_status');
      const { state } = await new AgentRepository<AgentState, AgentEvent>(
        deployment.store,
        new PostgresSnapshotStore(deployment.pool),
        agentStateDecider,
      ).load(target);
      expect(state.work_items.get(legacy.data.work_item_id)).toMatchObject({
        plan_status: 'draft',
        todo_list: [],
        revision: 1,
      });
      const page = await new AgentEventsReader(deployment.store).page(target, 0n);
      expect(page.items[0]).toMatchObject({
        data: { plan_status: 'draft' },
        metadata: { schema_version: 2, stored_schema_version: 0 },
      });
    });
  });
});
