import type { AgentEvent } from '../types';
import { Time } from './common';

/** Fields shown inline; the whole event data is one disclosure away. */
const SALIENT = [
  'objective',
  'plan_status',
  'blocked_by',
  'reason',
  'status',
  'kind',
  'wake',
  'source',
  'trigger_count',
  'terminal_kind',
  'detail',
  'text',
  'switch_kind',
];

function summary(event: AgentEvent): string {
  const decision = event.data.decision as { kind?: string; reason?: string } | undefined;
  if (decision?.kind) return `${decision.kind}: ${decision.reason ?? ''}`;
  const parts = SALIENT.filter((field) => event.data[field] !== undefined && event.data[field] !== null).map(
    (field) => {
      const value = event.data[field];
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return `${field.replace(/_/g, ' ')}: ${text.length > 120 ? `${text.slice(0, 117)}…` : text}`;
    },
  );
  if (Array.isArray(event.data.todo_list)) parts.push(`${event.data.todo_list.length} todos`);
  return parts.join(' · ');
}

/** Who caused an event: the token name (or the scheduler) that wrote it, and through what. */
function causedBy(event: AgentEvent): string {
  const provenance = event.data.provenance as { via?: string; actor?: string | null } | undefined;
  const actor = event.metadata.actor ?? 'unknown';
  return provenance?.via ? `${actor} via ${provenance.via}` : actor;
}

export function HistoryTable({ events, total }: { events: AgentEvent[]; total: number }) {
  if (!events.length) return <p class="muted">No events.</p>;
  return (
    <div class="table-wrap">
      <table class="history">
        <caption class="visually-hidden">
          Events about this work item, oldest first
          {total > events.length ? ` (the newest ${events.length} of ${total})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              Rev
            </th>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Caused by</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.revision} data-type={event.type}>
              <td class="num">{event.revision}</td>
              <td>
                <Time iso={event.recorded_at} />
              </td>
              <td>
                <code>{event.type}</code>
              </td>
              <td>
                {causedBy(event)}
                {event.metadata.command_id && <div class="small muted">command {event.metadata.command_id}</div>}
              </td>
              <td>
                {summary(event)}
                <details>
                  <summary>data</summary>
                  <pre>{JSON.stringify(event.data, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
