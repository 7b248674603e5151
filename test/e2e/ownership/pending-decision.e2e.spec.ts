import { randomUUID } from 'node:crypto';
import { AgentCommandService, SchedulerStepService } from '@app/application';
import { agentStream, currentSchemaVersion } from '@app/core';
import { decideNextAction, toDecisionRecord } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';
import { seedAgents } from './fleet-support';

jest.setTimeout(120_000);

/**
 * A tick decision is recorded and emitted in one append (ADR 0049): no writer can stop between
 * them. A stream written before that may hold "emit tick K" recorded alone by a writer that then
 * died (ADR 0039): the next step finds K as the last decision, still to be carried out, and emits
 * the tick without recording K a second time (no decision key twice).
 */
describe('a keyed decision is recorded once', () => {
  let app: TestApp;
  let store: EventStore;

  beforeAll(async () => {
    const url = await isolatedDatabaseUrl('pending_decision');
    app = await startTestApp({ env: { DATABASE_URL: url, RUNTIME_ROLE: 'api,projector' } });
    store = app.runtime.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(() => app?.close());

  it('given an agent with a tick due, when a step runs, then the record and its tick are one append', async () => {
    const agent = freshId('one-append');
    await seedAgents(store, [agent]);
    const step = await app.runtime.app.get(SchedulerStepService).step(agent);
    expect(step?.decision).toMatchObject({ kind: 'EmitSystemTick' });

    const events = await store.readStream(agentStream(agent));
    const recorded = events.findIndex((e) => e.type === 'SchedulerDecisionRecorded');
    expect(events.slice(recorded).map((e) => e.type)).toEqual([
      'SchedulerDecisionRecorded',
      'SystemTickEmitted',
      'MessageQueued',
    ]);
    // One command wrote the three: one append.
    expect(new Set(events.slice(recorded).map((e) => e.metadata.command_id)).size).toBe(1);
  });

  it('given "emit tick K" recorded alone by a writer that stopped there (a stream from before), when a step runs, then the tick is emitted and K is recorded once', async () => {
    const agent = freshId('pending');
    await seedAgents(store, [agent]);
    // What the stopped writer left: its decision on the seeded state, recorded, nothing after.
    const loaded = await app.runtime.app.get(AgentCommandService).load(agent);
    const at = new Date().toISOString();
    const decision = decideNextAction(loaded.state, at);
    expect(decision).toMatchObject({ kind: 'EmitSystemTick', idempotency_key: expect.any(String) });
    const commandId = `stopped-writer-${randomUUID()}`;
    await store.appendToStream(
      agentStream(agent),
      [
        {
          id: randomUUID(),
          type: 'SchedulerDecisionRecorded',
          data: { agent_id: agent, decision: toDecisionRecord(decision), at },
          metadata: {
            command_id: commandId,
            correlation_id: commandId,
            causation_id: commandId,
            actor: 'scheduler',
            schema_version: currentSchemaVersion('SchedulerDecisionRecorded'),
          },
        },
      ],
      loaded.revision ?? 'no_stream',
    );

    const step = await app.runtime.app.get(SchedulerStepService).step(agent);
    expect(step?.decision).toMatchObject({ kind: 'EmitSystemTick', idempotency_key: decision.idempotency_key });

    const events = await store.readStream(agentStream(agent));
    const keyed = events.filter(
      (e) =>
        e.type === 'SchedulerDecisionRecorded' &&
        (e.data.decision as { idempotency_key: string | null }).idempotency_key === decision.idempotency_key,
    );
    expect(keyed.map((e) => e.metadata.command_id)).toEqual([commandId]);
    const ticks = events.filter((e) => e.type === 'SystemTickEmitted');
    expect(ticks.map((e) => e.data.idempotency_key)).toEqual([decision.idempotency_key]);
    // The tick follows the one record directly.
    expect(events.indexOf(ticks[0])).toBe(events.indexOf(keyed[0]) + 1);
  });
});
