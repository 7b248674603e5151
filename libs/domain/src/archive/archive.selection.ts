import type { AgentState } from '../agent/agent.state';
import type { MessageRecord } from '../queue/message.state';
import { wakeHintKey } from '../scheduler/tick-keys';
import { compareInstants } from '../shared/time';
import { isTerminalTaskStatus } from '../task/task.state';
import type { WorkItem } from '../work-item/work-item.state';
import type { ArchivedCounts } from './archive.events';

// What an archive with a cut-off takes out of the live state (docs/domain-contract.md,
// "Archiving"). One function, read by the decider (to name the items and count the rest) and by
// evolve (to drop them), so the two cannot disagree. Only finished records older than the cut-off
// leave, and never one a live record still refers to: the scheduler decides as it did.

export type ArchiveSelection = {
  work_item_ids: string[];
  messages: Set<string>;
  turns: Set<string>;
  rounds: Set<string>;
  briefs: Set<string>;
  delivery_summaries: Set<string>;
  emitted_tick_keys: Set<string>;
  tasks: Set<string>;
  timers: Set<string>;
  waiting_intents: Set<string>;
};

const before = (instant: string | null, cutOff: string): boolean =>
  instant !== null && compareInstants(instant, cutOff) < 0;

const isLiveMessage = (message: MessageRecord): boolean => message.status === 'queued' || message.status === 'dequeued';

/** Work item ids that live records still name: the focus, open turns, active tasks, waits, timers, queued messages. */
function referencedItems(state: AgentState): Set<string> {
  const ids = new Set<string>();
  const add = (id: string | null | undefined) => {
    if (id) ids.add(id);
  };
  add(state.current_work_item_id);
  for (const turn of state.turns.values()) if (turn.status === 'open') add(turn.work_item_id);
  for (const task of state.tasks.values()) if (!isTerminalTaskStatus(task.status)) add(task.work_item_id);
  for (const intent of state.waiting_intents.values()) if (intent.status === 'active') add(intent.work_item_id);
  for (const timer of state.timers.values()) if (timer.status === 'scheduled') add(timer.work_item_id);
  for (const message of state.messages.values()) if (isLiveMessage(message)) add(message.work_item_id);
  return ids;
}

function archivableItems(state: AgentState, cutOff: string): string[] {
  const referenced = referencedItems(state);
  const archivable = (item: WorkItem) =>
    item.state === 'completed' && before(item.completed_at, cutOff) && !referenced.has(item.id);
  return state.work_items
    .values()
    .filter(archivable)
    .map((item) => item.id);
}

/** The live work item a tick key names (`work_queue:<reason>:<id>:<n>`), or a wake hint key that is not pending. */
function isStaleTickKey(state: AgentState, key: string, liveItems: ReadonlySet<string>): boolean {
  if (key.startsWith('work_queue:')) {
    const rest = key.slice(key.indexOf(':', 'work_queue:'.length) + 1);
    return !liveItems.has(rest.slice(0, rest.lastIndexOf(':')));
  }
  const hint = state.pending_wake_hint;
  return hint === null || key !== wakeHintKey(hint.source, hint.created_at);
}

const idsWhere = <T>(entries: Array<readonly [string, T]>, keep: (value: T, id: string) => boolean): Set<string> =>
  new Set(entries.filter(([id, value]) => keep(value, id)).map(([id]) => id));

export function archiveSelection(state: AgentState, cutOff: string, itemIds?: readonly string[]): ArchiveSelection {
  const work_item_ids = itemIds ? [...itemIds] : archivableItems(state, cutOff);
  const gone = new Set(work_item_ids);
  const liveItems = new Set(state.work_items.keys().filter((id) => !gone.has(id)));
  // An ended wait still decides how a live message is routed (a task_result re-enters when it
  // resolved a wait on its task, or an agent-scoped wait names the task), and a pending wake hint
  // names its intent: those stay while the message or the hint does.
  const liveTaskIds = new Set(
    state.messages.values().flatMap((m) => (isLiveMessage(m) && m.task_id ? [m.task_id] : [])),
  );
  const hintIntent = state.pending_wake_hint?.intent_id;
  const waiting_intents = idsWhere(
    state.waiting_intents.entries(),
    (i, id) =>
      i.status !== 'active' &&
      before(i.ended_at ?? i.updated_at, cutOff) &&
      !(i.resource !== null && liveTaskIds.has(i.resource)) &&
      id !== hintIntent,
  );
  const messages = idsWhere(state.messages.entries(), (m) => !isLiveMessage(m) && before(m.updated_at, cutOff));
  const keptMessages = state.messages.values().filter((m) => !messages.has(m.id));
  const keptIntents = state.waiting_intents.values().filter((i) => !waiting_intents.has(i.id));
  const taskRefs = new Set([...keptMessages.map((m) => m.task_id), ...keptIntents.map((i) => i.resource)]);
  const timerRefs = new Set(keptIntents.map((i) => i.timer_id));
  const turns = idsWhere(
    state.turns.entries(),
    (t, id) => t.status === 'closed' && id !== state.open_turn_id && before(t.terminal?.at ?? t.started_at, cutOff),
  );
  const rounds = new Set([...turns].flatMap((id) => state.turns.get(id)!.round_ids));
  return {
    work_item_ids,
    messages,
    turns,
    rounds,
    briefs: idsWhere(state.briefs.entries(), (b) => before(b.created_at, cutOff)),
    delivery_summaries: idsWhere(
      state.delivery_summaries.entries(),
      (s) => before(s.created_at, cutOff) && !liveItems.has(s.work_item_id),
    ),
    emitted_tick_keys: idsWhere(
      state.emitted_tick_keys.entries(),
      (emittedAt, key) => before(emittedAt, cutOff) && isStaleTickKey(state, key, liveItems),
    ),
    tasks: idsWhere(
      state.tasks.entries(),
      (t, id) => isTerminalTaskStatus(t.status) && before(t.updated_at, cutOff) && !taskRefs.has(id),
    ),
    timers: idsWhere(
      state.timers.entries(),
      (t, id) => t.status !== 'scheduled' && before(t.updated_at, cutOff) && !timerRefs.has(id),
    ),
    waiting_intents,
  };
}

export function countsOf(selection: ArchiveSelection): ArchivedCounts {
  return {
    messages: selection.messages.size,
    turns: selection.turns.size,
    rounds: selection.rounds.size,
    briefs: selection.briefs.size,
    delivery_summaries: selection.delivery_summaries.size,
    emitted_tick_keys: selection.emitted_tick_keys.size,
    tasks: selection.tasks.size,
    timers: selection.timers.size,
    waiting_intents: selection.waiting_intents.size,
  };
}

export const isEmptySelection = (selection: ArchiveSelection): boolean =>
  selection.work_item_ids.length === 0 && Object.values(countsOf(selection)).every((n) => n === 0);
