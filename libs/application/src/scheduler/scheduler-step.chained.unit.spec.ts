import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentState } from '@app/domain';
import { at, cmd, history } from '@app/domain/testing';
import type { EventStore, EventToAppend, StoredEvent } from '@app/event-store';
import { WrongExpectedRevisionError } from '@app/event-store';
import { agentStateDecider, type Clock, type SnapshotStore } from '@app/core';
import { AgentCommandService } from '../agents/agent-command.service';
import { AgentRepository } from '../agents/agent-repository';
import { SchedulerStepService } from './scheduler-step.service';

const AGENT = 'chained';
const stored = (events: readonly AgentEvent[]): EventToAppend[] =>
  events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: { command_id: 'seed' } }));

/** One agent stream in memory, counting the reads of it; `afterAppend` lets a rival write in between. */
function memoryStore() {
  const events: StoredEvent[] = [];
  const counts = { reads: 0 };
  let afterAppend: (appended: number) => void = () => undefined;
  const push = (stream: string, batch: EventToAppend[]) => {
    for (const event of batch)
      events.push({
        ...event,
        stream,
        metadata: event.metadata ?? {},
        revision: BigInt(events.length),
        position: BigInt(events.length),
        recorded_at: at(60),
      });
  };
  const store = {
    readStream: async (_stream: string, options: { from_revision?: bigint } = {}) => {
      counts.reads++;
      return events.slice(Number(options.from_revision ?? 0n));
    },
    appendToStream: async (stream: string, batch: EventToAppend[], expected: bigint | string) => {
      const actual = events.length === 0 ? null : BigInt(events.length - 1);
      if ((expected === 'no_stream' && actual !== null) || (typeof expected === 'bigint' && expected !== actual))
        throw new WrongExpectedRevisionError(stream, String(expected), actual);
      push(stream, batch);
      const written = { next_revision: BigInt(events.length - 1), position: BigInt(events.length - 1) };
      afterAppend(events.length);
      return written;
    },
    readRevisions: async () => [],
    headPosition: async () => (events.length === 0 ? null : BigInt(events.length - 1)),
  } as unknown as EventStore;
  return { store, events, counts, push, onAppend: (hook: (count: number) => void) => (afterAppend = hook) };
}

const noSnapshots: SnapshotStore = { load: async () => null, save: async () => undefined };
const clock: Clock = { now: () => new Date(at(60)) };

function stepsOn(store: EventStore) {
  const repository = new AgentRepository<AgentState, AgentEvent>(store, noSnapshots, agentStateDecider);
  return new SchedulerStepService(new AgentCommandService(repository, clock), clock);
}

const decisions = (events: StoredEvent[]) =>
  events
    .filter((e) => e.type === 'SchedulerDecisionRecorded')
    .map((e) => (e.data as { decision: { kind: string } }).decision.kind);

describe('SchedulerStepService.settle: a chained step decides on the state the previous step wrote', () => {
  it('reads the stream once for a tick and the decision after it, and records what a reload would', async () => {
    const memory = memoryStore();
    memory.push(`agent-${AGENT}`, stored(history([], cmd.register(AGENT), cmd.create('w-1'))));
    const result = await stepsOn(memory.store).settle(AGENT);
    expect(decisions(memory.events)).toEqual(['EmitSystemTick', result!.decision.kind]);
    expect(memory.counts.reads).toBe(1);

    // The same agent settled by steps that reload before every step: the same events, in the same order.
    const again = memoryStore();
    again.push(`agent-${AGENT}`, stored(history([], cmd.register(AGENT), cmd.create('w-1'))));
    const service = stepsOn(again.store);
    for (let step = await service.step(AGENT); step?.decision.kind === 'EmitSystemTick';)
      step = await service.step(AGENT);
    expect(again.events.map((e) => [e.type, e.data])).toEqual(memory.events.map((e) => [e.type, e.data]));
  });

  it('a write in between is refused by the expected revision: that step reloads and decides on the new state', async () => {
    const memory = memoryStore();
    memory.push(`agent-${AGENT}`, stored(history([], cmd.register(AGENT), cmd.create('w-1'))));
    const seeded = memory.events.length;
    const rival = history([], cmd.register(AGENT), cmd.create('w-1'), cmd.create('w-2')).slice(seeded);
    // Right after the tick's append (its decision, the tick and its message), another writer appends w-2.
    let appends = 0;
    let rivalAt = -1;
    memory.onAppend((count) => {
      if (++appends !== 1) return;
      rivalAt = count;
      memory.push(`agent-${AGENT}`, stored(rival));
    });
    const result = await stepsOn(memory.store).settle(AGENT);
    const types = memory.events.map((e) => e.type);
    expect(types.slice(seeded, rivalAt)).toEqual(['SchedulerDecisionRecorded', 'SystemTickEmitted', 'MessageQueued']);
    // Nothing decided on the state before w-2 was written after it; the last decision saw w-2.
    expect(types.slice(rivalAt + rival.length)).toContain('SchedulerDecisionRecorded');
    expect(result!.state.work_items.has('w-2')).toBe(true);
    expect(memory.counts.reads).toBeGreaterThan(1);
  });
});
