import type { TodoItem } from '../work-item/work-item.state';
import type { CandidateContent, CompletedContent, CountedContent, CurrentItemContent } from './context.sections';

// The text of each context section, for hosts that paste the projection into a prompt.

const TODO_MARK: Record<TodoItem['state'], string> = { completed: 'x', in_progress: '>', pending: ' ' };

function todoLines(item: CurrentItemContent): string[] {
  if (item.todo_list.length === 0) return ['Todos: none'];
  return [
    'Todos:',
    ...item.todo_list.map((t) => `- [${TODO_MARK[t.state]}] ${t.text}${t === item.current_todo ? ' (current)' : ''}`),
  ];
}

function planLines(item: CurrentItemContent): string[] {
  const plan = item.plan_artifact;
  const head = `Plan: ${plan.relative_path} (in the agent's home; ${plan.hash}, ${plan.byte_size} bytes${plan.preview_complete ? '' : ', preview truncated: read the file for the rest'})`;
  return plan.preview === '' ? [head] : [head, 'Plan preview:', plan.preview];
}

function waitLines(item: CurrentItemContent): string[] {
  if (item.waiting_intents.length === 0) return [];
  return [
    'Waits:',
    ...item.waiting_intents.map(
      (i) =>
        `- ${i.id} ${i.wake}${i.resource ? ` (${i.resource})` : ''}: ${i.reason}${i.triggered ? ` [triggered ${i.trigger_count}x, last ${i.last_triggered_at}]` : ''}`,
    ),
  ];
}

function traceLines(item: CurrentItemContent): string[] {
  const { rounds, briefs } = item.process_trace;
  const roundLines = rounds.map(
    (r) =>
      `- round ${r.round_id} (turn ${r.turn_id}): ${r.text || '(no text)'}${r.tool_calls.length ? ` [tools: ${r.tool_calls.map((c) => c.name).join(', ')}]` : ''}`,
  );
  const briefLines = briefs.map((b) => `- ${b.kind} brief: ${b.text}`);
  return roundLines.length + briefLines.length === 0 ? [] : ['Recent process trace:', ...roundLines, ...briefLines];
}

export function renderCurrentItem(item: CurrentItemContent | null, title = 'Current work item'): string {
  if (item === null) return `## ${title}\nNone: no work item is in focus.`;
  return [
    `## ${title} ${item.id} (${item.readiness}, ${item.focus_mode}, plan ${item.plan_status}, revision ${item.revision})`,
    `Objective: ${item.objective}`,
    ...planLines(item),
    ...todoLines(item),
    ...(item.blocked_by === null ? [] : [`Blocked by: ${item.blocked_by}`]),
    ...(item.recheck_at === null ? [] : [`Recheck at: ${item.recheck_at}`]),
    ...waitLines(item),
    ...traceLines(item),
  ].join('\n');
}

function candidateLine(c: CandidateContent): string {
  const parts = [`- ${c.id}: ${c.objective}`];
  if (c.current_todo) parts.push(`current todo: ${c.current_todo.text}`);
  if (c.blocked_by !== null) parts.push(`blocked by: ${c.blocked_by}`);
  if (c.trigger_count !== undefined) parts.push(`triggered ${c.trigger_count}x, last ${c.last_triggered_at}`);
  return parts.join(' | ');
}

export function renderCandidates(title: string, content: CountedContent<CandidateContent>): string {
  const shown = content.items.length < content.count ? `, top ${content.items.length}` : '';
  return [`## ${title} (${content.count}${shown})`, ...content.items.map(candidateLine)].join('\n');
}

export function renderCompleted(content: CountedContent<CompletedContent>): string {
  const shown = content.items.length < content.count ? `, top ${content.items.length}` : '';
  return [
    `## Recently completed with reports (${content.count}${shown})`,
    ...content.items.map((c) => `- ${c.id}: ${c.objective} | report: ${c.report}`),
  ].join('\n');
}
