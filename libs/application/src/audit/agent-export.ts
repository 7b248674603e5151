import { hash } from 'node:crypto';
import type { EventToAppend, StoredEvent } from '@app/event-store';
import { agentIdOfStream, agentStream } from '@app/core';
import { fromStoredEventJson, StoredEventFormatError, toStoredEventJson } from './stored-event-json';

/*
 * An agent's stream as a fixture directory: `events.jsonl` (one stored event per line, as
 * stored) and `agent.json` (this meta). NOTE: stored format (docs/decisions/0007).
 */
export const EXPORT_FORMAT = 'agent-runtime/agent-export';
export const EXPORT_FORMAT_VERSION = 1;
export const REDACTED = '[redacted]';

/** Payload fields that carry bodies (what people wrote), by event type: dotted paths under `data`. */
export const BODY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  MessageQueued: ['body'],
  WakeHintSubmitted: ['body'],
  TimerCreated: ['resume_text'],
  WorkItemCreated: ['plan_artifact.preview'],
  PlanArtifactRefreshed: ['plan_artifact.preview'],
  AssistantRoundRecorded: ['text'],
  TurnTerminal: ['last_assistant_message'],
  WorkItemReportPromoted: ['result_summary'],
  DeliverySummaryRecorded: ['text'],
  BriefRecorded: ['text'],
};

export interface AgentExportMeta {
  format: typeof EXPORT_FORMAT;
  format_version: number;
  agent_id: string;
  stream: string;
  event_count: number;
  last_revision: string | null;
  exported_at: string;
  /** null: bodies are as stored. */
  redaction: { marker: string; fields: string[]; redacted_values: number } | null;
}

export function exportMeta(
  agentId: string,
  events: StoredEvent[],
  exportedAt: string,
  redactedValues: number | null,
): AgentExportMeta {
  const fields = Object.entries(BODY_FIELDS).flatMap(([type, paths]) => paths.map((path) => `${type}.data.${path}`));
  return {
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    agent_id: agentId,
    stream: agentStream(agentId),
    event_count: events.length,
    last_revision: events.length ? events[events.length - 1].revision.toString() : null,
    exported_at: exportedAt,
    redaction: redactedValues === null ? null : { marker: REDACTED, fields, redacted_values: redactedValues },
  };
}

/** The event with its body fields replaced by the marker (null and absent values stay), and how many were. */
export function redactBodies(event: StoredEvent): { event: StoredEvent; redacted: number } {
  let redacted = 0;
  let data = event.data;
  for (const path of BODY_FIELDS[event.type] ?? []) {
    const next = replaceAt(data, path.split('.'));
    if (next !== data) [data, redacted] = [next, redacted + 1];
  }
  return { event: redacted ? { ...event, data } : event, redacted };
}

function replaceAt(node: Record<string, unknown>, [key, ...rest]: string[]): Record<string, unknown> {
  const value = node[key];
  if (value === null || value === undefined) return node;
  if (rest.length === 0) return value === REDACTED ? node : { ...node, [key]: REDACTED };
  if (typeof value !== 'object' || Array.isArray(value)) return node;
  const inner = replaceAt(value as Record<string, unknown>, rest);
  return inner === value ? node : { ...node, [key]: inner };
}

export const toJsonLines = (events: StoredEvent[]): string =>
  events.map((event) => `${JSON.stringify(toStoredEventJson(event))}\n`).join('');

/** Parses `events.jsonl`: one agent stream, complete (revisions 0..n-1 in order). */
export function parseJsonLines(text: string, file = 'events.jsonl'): { agentId: string; events: StoredEvent[] } {
  const lines = text
    .split('\n')
    .map((line, index) => ({ line, where: `${file}:${index + 1}` }))
    .filter(({ line }) => line.trim() !== '');
  const events = lines.map(({ line, where }) => {
    try {
      return fromStoredEventJson(JSON.parse(line), where);
    } catch (error) {
      throw error instanceof StoredEventFormatError ? error : new StoredEventFormatError(where, 'not valid JSON');
    }
  });
  if (events.length === 0) throw new StoredEventFormatError(file, 'holds no events');
  const agentId = agentIdOfStream(events[0].stream);
  if (agentId === null)
    throw new StoredEventFormatError(`${file}:1`, `stream ${events[0].stream} is not an agent stream`);
  events.forEach((event, index) => {
    if (event.stream !== events[0].stream)
      throw new StoredEventFormatError(
        `${file}:${index + 1}`,
        `stream ${event.stream} differs from ${events[0].stream}`,
      );
    if (event.revision !== BigInt(index))
      throw new StoredEventFormatError(
        `${file}:${index + 1}`,
        `revision ${event.revision} where ${index} was expected (an export is a whole stream)`,
      );
  });
  return { agentId, events };
}

/**
 * The events to append for `target`. The same agent keeps every event id; another agent id gets
 * `data.agent_id` rewritten and ids derived from (target, original id): event ids are unique in a
 * store, and a re-run derives the same ones.
 */
export function eventsToImport(events: StoredEvent[], source: string, target: string): EventToAppend[] {
  return events.map((event) => {
    if (source === target) return { id: event.id, type: event.type, data: event.data, metadata: event.metadata };
    const data = event.data.agent_id === source ? { ...event.data, agent_id: target } : event.data;
    return { id: derivedEventId(target, event.id), type: event.type, data, metadata: event.metadata };
  });
}

export function derivedEventId(target: string, id: string): string {
  const hex = hash('sha256', `${target}\u0000${id}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
