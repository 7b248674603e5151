import {
  type AgentCommand,
  type AgentEvent,
  type AgentState,
  type CommandMeta,
  decide,
  evolve,
  initialAgentState,
} from '@app/domain';
import type { EventStore } from '@app/event-store';
import { agentStateDecider, type SnapshotStore } from '@app/core';
import { AgentRepository, IdempotencyWindow } from '@app/application';
import { atMost, type Check } from '../report';
import type { FigureBody } from '../support/context';
import { median, msSince, nowNs } from '../support/stats';
import { planArtifact, toAppend, todoList } from '../support/workload';

// The archive part of figure 7 (docs/decisions/0034): an agent that has completed many items
// over its life, loaded with and without archiving (WorkItemsArchived every ARCHIVE_EVERY items).

const EPOCH = Date.UTC(2026, 0, 1);
/** The policy archives every this many completions ... */
const ARCHIVE_EVERY = 500;
/** ... the items completed before the last KEEP ones (so at most KEEP + ARCHIVE_EVERY stay live). */
const KEEP = 100;
const BATCH = 500;

type Built = { events: number; snapshotBytes: number; state: AgentState };

/** Registers the agent, then creates and completes `items` items (two open items stay), archiving or not. */
async function buildLife(
  store: EventStore,
  snapshots: SnapshotStore,
  agentId: string,
  items: number,
  archiving: boolean,
): Promise<Built> {
  let state = initialAgentState();
  let n = 0;
  let expected: bigint | 'no_stream' = 'no_stream';
  let pending: ReturnType<typeof toAppend> = [];
  const commands: Array<[string, bigint]> = [];
  let written = 0;
  const completedAt: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    expected = (await store.appendToStream(`agent-${agentId}`, pending, expected)).next_revision;
    pending = [];
  };
  const run = async (build: (meta: CommandMeta) => AgentCommand) => {
    const meta = { now: new Date(EPOCH + n * 1000).toISOString(), command_id: `${agentId}-c${n++}`, actor: 'bench' };
    const events: AgentEvent[] = decide(build(meta), state);
    for (const event of events) state = evolve(state, event);
    pending.push(...toAppend(events, meta.command_id));
    events.forEach((_, i) => commands.push([meta.command_id, BigInt(written + i)]));
    written += events.length;
    if (commands.length > 2 * IdempotencyWindow.LIMIT) commands.splice(0, commands.length - IdempotencyWindow.LIMIT);
    if (pending.length >= BATCH) await flush();
    return meta.now;
  };
  const create =
    (id: string) =>
    (meta: CommandMeta): AgentCommand => ({
      type: 'CreateWorkItem',
      data: {
        work_item_id: id,
        objective: `objective of ${id}`,
        plan_status: 'ready',
        todo_list: todoList(0),
        plan_artifact: planArtifact(agentId, id, meta.now),
      },
      meta,
    });
  await run((meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
  for (const id of ['w-open-1', 'w-open-2']) await run(create(id));
  for (let i = 0; i < items; i++) {
    const id = `w-${i}`;
    await run(create(id));
    completedAt.push(await run((meta) => ({ type: 'CompleteWorkItem', data: { work_item_id: id }, meta })));
    if (archiving && (i + 1) % ARCHIVE_EVERY === 0 && i + 1 > KEEP) {
      const cutOff = completedAt[i - KEEP];
      await run((meta) => ({ type: 'ArchiveWorkItems', data: { completed_before: cutOff }, meta }));
    }
  }
  await flush();
  const snapshot = {
    agent_id: agentId,
    revision: BigInt(written - 1),
    state_version: agentStateDecider.stateVersion,
    state,
    commands: IdempotencyWindow.empty().withEvents(commands).toJSON(),
  };
  await snapshots.save<AgentState>(snapshot);
  return { events: written, snapshotBytes: Buffer.byteLength(JSON.stringify(state)), state };
}

/** Median µs of evolving one todo-list update of an open item onto `state`. */
function evolveCost(state: AgentState, repetitions: number): number {
  const event: AgentEvent = {
    type: 'WorkItemUpdated',
    data: {
      agent_id: state.agent_id!,
      work_item_id: 'w-open-1',
      todo_list: todoList(3),
      revision: 2,
      at: new Date(EPOCH).toISOString(),
    },
  };
  const times: number[] = [];
  for (let r = 0; r < repetitions; r++) {
    const t0 = nowNs();
    evolve(state, event);
    times.push(msSince(t0) * 1000);
  }
  return median(times);
}

export async function archivePart(
  store: EventStore,
  snapshots: SnapshotStore,
  sizes: number[],
  log: (line: string) => void,
): Promise<Pick<FigureBody, 'checks' | 'tables' | 'notes'> & { method: string }> {
  type Row = { events: number; snapshotBytes: number; loadMs: number; evolveUs: number; liveItems: number };
  const results = new Map<string, Row>();
  for (const size of sizes) {
    for (const archiving of [true, false]) {
      const agentId = `archive-${archiving ? 'on' : 'off'}-${size}`;
      const t0 = nowNs();
      const built = await buildLife(store, snapshots, agentId, size, archiving);
      log(
        `  archive ${archiving ? 'on' : 'off'}: ${size} completed items, ${built.events} events in ${(msSince(t0) / 1000).toFixed(1)} s`,
      );
      const loads: number[] = [];
      for (let r = 0; r < 5; r++) {
        const repository = new AgentRepository<AgentState, AgentEvent>(store, snapshots, agentStateDecider);
        const start = nowNs();
        await repository.load(agentId);
        loads.push(msSince(start));
      }
      results.set(`${archiving}-${size}`, {
        events: built.events,
        snapshotBytes: built.snapshotBytes,
        loadMs: median(loads),
        evolveUs: evolveCost(built.state, 201),
        liveItems: built.state.work_items.size,
      });
    }
  }
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  const on = (size: number) => results.get(`true-${size}`)!;
  const off = (size: number) => results.get(`false-${size}`)!;
  const label = (size: number) => `${size.toLocaleString('en-US')} completed items`;
  const flat = (name: string, pick: (row: Row) => number, unit: string): Check => ({
    name: `with archiving, ${name}: ${label(large)} vs ${label(small)}`,
    measured: { value: pick(on(large)), unit },
    baseline: { value: pick(on(small)), unit, label: label(small) },
    ...atMost(pick(on(large)) / pick(on(small)), 1.5),
  });
  const growth = (name: string, pick: (row: Row) => number, unit: string): Check => ({
    name: `without archiving, ${name}: ${label(large)} vs ${label(small)}`,
    measured: { value: pick(off(large)), unit },
    baseline: { value: pick(off(small)), unit, label: label(small) },
    ratio: pick(off(large)) / pick(off(small)),
  });
  const checks: Check[] = [
    flat('cold load (snapshot)', (r) => r.loadMs, 'ms'),
    flat('snapshot size', (r) => r.snapshotBytes / 1024, 'KiB'),
    growth('cold load (snapshot)', (r) => r.loadMs, 'ms'),
    growth('snapshot size', (r) => r.snapshotBytes / 1024, 'KiB'),
    {
      name: `evolve of one work item event, ${label(large)}: with vs without archiving`,
      measured: { value: on(large).evolveUs, unit: 'µs' },
      baseline: { value: off(large).evolveUs, unit: 'µs', label: 'without archiving' },
      ratio: on(large).evolveUs / off(large).evolveUs,
    },
  ];
  const rows = sizes.flatMap((size) =>
    [true, false].map((archiving) => {
      const row = archiving ? on(size) : off(size);
      return [
        size,
        archiving ? 'yes' : 'no',
        row.events,
        row.liveItems,
        row.snapshotBytes / 1024,
        row.loadMs,
        row.evolveUs,
      ];
    }),
  );
  const missed = checks.filter((check) => check.met === false).map((check) => check.name);
  return {
    method:
      ` Archiving (issue 20 item 4): one agent per size and mode whose life is create + complete, item after item (two items stay open), ` +
      `decided and folded by the domain and appended through the store in ${BATCH}-event batches; with archiving, a WorkItemsArchived ` +
      `every ${ARCHIVE_EVERY} completions takes the items completed before the last ${KEEP}. A snapshot at the last event; cold loads ` +
      '(medians of 5) on a new repository; evolve: the median of 201 folds of one todo-list update of an open item onto the final state.',
    checks,
    tables: [
      {
        title: 'An agent with a long past: with and without archiving',
        columns: ['completed items', 'archiving', 'events', 'live items', 'snapshot KiB', 'cold load ms', 'evolve µs'],
        rows,
      },
    ],
    notes: [
      'With archiving the live state holds at most the last ' +
        `${KEEP + ARCHIVE_EVERY} completed items whatever the agent's past, so the snapshot and the load stay flat; without it both grow with every item completed.`,
      ...(missed.length > 0 ? [`Missed: ${missed.join('; ')}.`] : []),
    ],
  };
}
