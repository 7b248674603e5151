import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  type AgentState,
  type AnyEvent,
  decideNextAction,
  evolve,
  initialAgentState,
  replayDecisions,
  schedulerProjection,
  toDecisionRecord,
  valuesInObjectOrder,
} from '@app/domain';
import { fromStoredEventJson, parseJsonLines } from '@app/application';
import { toDomainEvent, fromRepoRoot, upcastEvent } from '@app/core';
import type { StoredEvent } from '@app/event-store';

/*
 * The format of fixtures/scheduler/<case>/expected.json (see its README): what the domain
 * derives from the stored stream at `now`. The generator writes it, the fixture spec recomputes
 * it from events.jsonl and compares, so a change of behaviour is a diff of these files.
 */

export const SCHEDULER_FIXTURES_DIR = fromRepoRoot('fixtures', 'scheduler');

export interface CaseMeta {
  description: string;
  /** The `now` of the expected decision; default: recorded_at of the last event. */
  now?: string;
  /** The work items and focus at the end equal those just after this revision (e.g. a terminal that must not touch them). */
  work_items_unchanged_since_revision?: number;
}

/** A stored event as today's code reads it, without the schema versions (what was stored vs read). */
function asRead(event: StoredEvent) {
  const current = upcastEvent(event);
  const { schema_version: _version, stored_schema_version: _stored, ...metadata } = current.metadata;
  return { ...current, metadata };
}

/**
 * The recorded events.jsonl with each line stored under an older schema version than `written`'s
 * line replaced by that line when the upcasters lift it to exactly the same event; every other
 * line as recorded. A stream recorded before an event's schema changed stays on disk as it was
 * stored (like a deployment's events) and is up to date when this gives `written` byte for byte.
 */
export function recordedAsWrittenToday(recorded: string, written: string): string {
  const lines = recorded.split('\n');
  const today = written.split('\n');
  if (lines.length !== today.length) return recorded;
  return lines
    .map((line, i) => {
      if (line === today[i] || line.trim() === '') return line;
      const [old, now] = [line, today[i]].map((text) => fromStoredEventJson(JSON.parse(text), `events.jsonl:${i + 1}`));
      const older = Number(old.metadata.schema_version ?? 1) < Number(now.metadata.schema_version ?? 1);
      return older && isDeepStrictEqual(asRead(old), asRead(now)) ? today[i] : line;
    })
    .join('\n');
}

export function expectedDecision(state: AgentState, now: string) {
  const d = toDecisionRecord(decideNextAction(state, now));
  return {
    kind: d.kind,
    reason: d.reason,
    model_reentry: d.model_reentry,
    liveness_only: d.liveness_only,
    links: { message_id: d.message_id, work_item_id: d.work_item_id, task_id: d.task_id },
    idempotency_key: d.idempotency_key,
    evidence: d.evidence,
  };
}

export type ExpectedDecision = ReturnType<typeof expectedDecision>;

export function expectedProjection(state: AgentState, now: string) {
  const p = schedulerProjection(state, now);
  return {
    posture: p.posture,
    current_work_item_id: p.current_work_item?.id ?? null,
    open_turn_id: p.open_turn?.turn_id ?? null,
    queue: { count: p.queue.count, head: p.queue.head },
    pending_wake_hint: p.pending_wake_hint?.idempotency_key ?? null,
    counts: p.counts,
    candidates: p.candidates,
    replay_message_ids: p.replay_message_ids,
  };
}

/** Tool calls are facts of the process trace: kept as evidence, never replayed. */
export const expectedRounds = (state: AgentState) =>
  valuesInObjectOrder(state.rounds).map((round) => ({
    round_id: round.round_id,
    turn_id: round.turn_id,
    tool_call_ids: round.tool_calls.map((call) => call.tool_call_id),
  }));

/** The work-item part of the state that a fact must leave alone. */
export const workItemsOf = (state: AgentState) => ({
  current_work_item_id: state.current_work_item_id,
  work_items: state.work_items,
});

export function expectedOf(name: string, stored: readonly StoredEvent[], meta: CaseMeta) {
  const events: AnyEvent[] = stored.map((event) => toDomainEvent(event));
  const state = events.reduce(evolve, initialAgentState());
  const now = meta.now ?? stored[stored.length - 1].recorded_at;
  const replay = replayDecisions(events);
  return {
    case: name,
    description: meta.description,
    stream: stored[0].stream,
    events: stored.length,
    now,
    decision: expectedDecision(state, now),
    projection: expectedProjection(state, now),
    rounds: expectedRounds(state),
    recorded_decisions: {
      count: replay.entries.length,
      matches: replay.entries.length - replay.mismatches.length,
      mismatches: replay.mismatches.length,
    },
    ...(meta.work_items_unchanged_since_revision !== undefined && {
      work_items_unchanged_since_revision: meta.work_items_unchanged_since_revision,
    }),
  };
}

export type ExpectedFixture = ReturnType<typeof expectedOf>;

export interface FixtureCaseDir {
  name: string;
  dir: string;
  events: StoredEvent[];
  expected: ExpectedFixture;
}

/** Every case directory (a directory with events.jsonl), by name. */
export function loadFixtureCases(root = SCHEDULER_FIXTURES_DIR): FixtureCaseDir[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'events.jsonl')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = join(root, name);
      const { events } = parseJsonLines(readFileSync(join(dir, 'events.jsonl'), 'utf8'), join(dir, 'events.jsonl'));
      return {
        name,
        dir,
        events,
        expected: JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as ExpectedFixture,
      };
    });
}
