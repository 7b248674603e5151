import type { DecisionRecord } from '@app/domain';
import type { ExplainReply } from './explain-view';

// The human form of `explain`: the decision first, then each open item, the queue and the waits.

const none = (items: unknown[], text: string): string[] => (items.length === 0 ? [`  ${text}`] : []);

function decisionLines(d: DecisionRecord): string[] {
  const links = (['message_id', 'work_item_id', 'task_id'] as const)
    .filter((k) => d[k] !== null)
    .map((k) => `${k} ${d[k]}`);
  return [
    `decision: ${d.kind} (${d.reason})${d.model_reentry ? ', re-enters the model' : ''}${d.liveness_only ? ', liveness only' : ''}`,
    `  links: ${links.length ? links.join(', ') : 'none'}`,
    `  idempotency key: ${d.idempotency_key ?? 'none'}`,
    '  evidence:',
    ...d.evidence.map((line) => `    - ${line}`),
  ];
}

function itemLines(reply: ExplainReply): string[] {
  const lines = [
    `open work items (${reply.work_items.length}; ${reply.completed_work_items} completed), in candidate order:`,
    ...none(reply.work_items, 'none'),
  ];
  for (const item of reply.work_items) {
    lines.push(
      `  ${item.id}${item.is_current ? ' (focus)' : ''}  readiness ${item.readiness}, scheduling ${item.scheduling_state}, class ${item.candidate_class}, plan ${item.plan_status}, revision ${item.revision}`,
    );
    lines.push(`    ${item.why}`);
    lines.push(`    why not: ${item.why_not.summary}`);
    for (const intent of item.active_intents) {
      const triggered =
        intent.trigger_count > 0 ? `, triggered ${intent.trigger_count}x (last ${intent.last_triggered_at})` : '';
      lines.push(
        `    intent ${intent.id}: ${intent.wake}${intent.resource ? ` on ${intent.resource}` : ''} "${intent.reason}"${triggered}`,
      );
    }
  }
  return lines;
}

function queueLines(reply: ExplainReply): string[] {
  const { queue } = reply;
  const bands = Object.entries(queue.by_priority)
    .filter(([, n]) => n > 0)
    .map(([band, n]) => `${band} ${n}`)
    .join(', ');
  const head = queue.head
    ? `head ${queue.head.message_id} (${queue.head.kind}, ${queue.head.priority}): ${queue.head.model_reentry ? 'model re-entry' : 'reduce only'}, ${queue.head.reason}`
    : 'empty';
  const turn = reply.open_turn
    ? `open turn ${reply.open_turn.turn_id} on ${reply.open_turn.message_id}, lease until ${reply.open_turn.lease_expires_at}${reply.open_turn.lease_expired ? ' (expired)' : ''}`
    : 'no open turn';
  const hint = reply.pending_wake_hint
    ? `pending wake hint ${reply.pending_wake_hint.idempotency_key} (${reply.pending_wake_hint.reason})`
    : 'no pending wake hint';
  return [
    `queue: ${queue.count} queued${bands ? ` (${bands})` : ''}; ${head}`,
    `  replays after a restart: ${reply.replay_message_ids.length ? reply.replay_message_ids.join(', ') : 'nothing'}`,
    `  ${turn}; ${hint}`,
  ];
}

function waitLines(reply: ExplainReply): string[] {
  const { waits } = reply;
  const lines = [
    ...waits.operator_items.map((id) => `  the operator: ${id} needs input`),
    ...waits.intents.map(
      (i) =>
        `  intent ${i.id}: ${i.wake}${i.resource ? ` on ${i.resource}` : ''} (${i.work_item_id ? `item ${i.work_item_id}` : 'agent-scoped'})`,
    ),
    ...waits.timers.map((t) => `  timer ${t.id} at ${t.fire_at}${t.work_item_id ? ` (item ${t.work_item_id})` : ''}`),
  ];
  const tasks = waits.tasks_not_waits.map((t) => `  task ${t.id} is ${t.status} (a running task alone is not a wait)`);
  return ['waits for:', ...(lines.length ? lines : ['  nothing']), ...tasks];
}

export function explainText(reply: ExplainReply): string {
  const last = reply.last_decision
    ? `${reply.last_decision.kind} (${reply.last_decision.reason}) at ${reply.last_decision.recorded_at}`
    : 'none';
  const lines = [
    `agent ${reply.agent_id} at revision ${reply.revision} of 0..${reply.last_revision} (${reply.source})`,
    `now: ${reply.now} (${reply.now_source})`,
    `posture: ${reply.posture}${reply.runtime_posture === reply.posture ? '' : ` (${reply.runtime_posture})`}; focus: ${reply.current_work_item_id ?? 'none'}; last recorded decision: ${last}`,
    `closure: ${reply.closure.closure} (${reply.closure.reason})${reply.closure.evidence.length ? `: ${reply.closure.evidence.join(', ')}` : ''}`,
    ...decisionLines(reply.decision),
    ...itemLines(reply),
    ...queueLines(reply),
    ...waitLines(reply),
  ];
  return `${lines.join('\n')}\n`;
}
