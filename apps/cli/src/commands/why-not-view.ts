import { type AnyEvent, type WhyNot, whyNot } from '@app/domain';
import { CliError, EXIT } from '../cli-io';
import { type AgentStreamSource, stateAt } from './replay-source';

/*
 * `explain <agent> --item <w>`: the domain's why-not view (views/why-not.ts, the one behind
 * GET .../work-items/{w}/why) of one item at a revision, with `now` as `explain` takes it.
 */

export type WhyNotReply = WhyNot & {
  agent_id: string;
  source: string;
  revision: number;
  last_revision: number;
  now_source: string;
};

const archivedIn = (events: readonly AnyEvent[], itemId: string): boolean =>
  events.some(
    (event) =>
      event.type === 'WorkItemsArchived' &&
      Array.isArray((event.data as { work_item_ids?: unknown }).work_item_ids) &&
      (event.data as { work_item_ids: unknown[] }).work_item_ids.includes(itemId),
  );

/** The why-not view of `itemId` at revision `at` (null: the end); exit 4 for an item the stream never archived nor holds. */
export function whyNotAt(source: AgentStreamSource, at: number | null, now: string | null, itemId: string) {
  const { state, events, revision, last } = stateAt(source, at);
  const instant = now ?? source.stored[revision].recorded_at;
  const view = whyNot(state, itemId, instant, { archived: archivedIn(events, itemId) });
  if (view === null)
    throw new CliError(
      EXIT.notFound,
      `work item ${itemId} not found in agent ${source.agentId} at revision ${revision}`,
    );
  return {
    agent_id: source.agentId,
    source: source.origin,
    revision,
    last_revision: last,
    now_source: now === null ? `recorded_at of revision ${revision}` : '--now',
    ...view,
  } satisfies WhyNotReply;
}

/** The human form: the verdict first, then the ladder, what ranks before, what holds it, what would help. */
export function whyNotText(reply: WhyNotReply): string {
  const d = reply.decision;
  const lines = [
    `agent ${reply.agent_id} at revision ${reply.revision} of 0..${reply.last_revision} (${reply.source})`,
    `now: ${reply.now} (${reply.now_source})`,
    `work item ${reply.work_item_id}: ${reply.verdict}`,
    `  ${reply.summary}`,
    `decision now: ${d.kind} (${d.reason})${d.work_item_id ? `, work_item ${d.work_item_id}` : ''}${d.message_id ? `, message ${d.message_id}` : ''}`,
    'ladder (in the order it is climbed):',
    ...reply.ladder.map((step) => {
      const mark = reply.standing?.rule === step.rule ? ' <- the item stands here' : '';
      const outcome = step.applies
        ? `${step.kind} ${step.reason}${step.work_item_id ? ` (${step.work_item_id})` : ''}`
        : '-';
      return `  ${String(step.rung).padStart(2)} ${step.rule.padEnd(18)} ${outcome}${mark}`;
    }),
  ];
  if (reply.standing?.rank != null) lines.push(`rank: #${reply.standing.rank} of ${reply.standing.of}`);
  if (reply.standing?.tick_key)
    lines.push(`tick key: ${reply.standing.tick_key}${reply.standing.tick_emitted ? ' (already emitted)' : ''}`);
  lines.push(`ranks before it (${reply.ranks_before_total}):`);
  lines.push(
    ...(reply.ranks_before.length
      ? reply.ranks_before.map((r) => `  rung ${r.rung} ${r.rule}: ${r.kind} ${r.id}: ${r.why}`)
      : ['  nothing']),
  );
  lines.push('holds it:');
  lines.push(
    ...(reply.blockers.length
      ? reply.blockers.map((b) => `  ${b.kind}: ${b.detail}${b.until ? ` (until ${b.until})` : ''}`)
      : ['  nothing']),
  );
  lines.push('would make it next:');
  lines.push(
    ...(reply.next_events.length
      ? reply.next_events.map((e) => `  ${e.event ?? '(not an event)'}: ${e.description}${e.at ? ` (at ${e.at})` : ''}`)
      : ['  nothing (it is next, completed or archived)']),
  );
  return `${lines.join('\n')}\n`;
}
