import {
  type MessageRecord,
  PRIORITY_BAND_RANK,
  type TaskRecord,
  type TimerRecord,
  type WaitingIntentRecord,
  isTerminalTaskStatus,
  toMessageView,
  toTaskView,
  toTimerView,
  toWaitingIntentView,
} from '@app/domain';
import { recordProjector } from './record-projector';

// The waiting plane's read models (migration 0005): one generic record projector per kind. Views
// come from the domain's view functions, so a row is exactly what the command side would answer.

/** The view never holds the token hash (only `has_callback_token`). */
export const waitingIntentsProjector = recordProjector<WaitingIntentRecord>({
  name: 'waiting_intents',
  table: 'waiting_intents',
  records: (state) => state.waiting_intents,
  columns: ['status', 'work_item_id', 'created_at'],
  row: (_state, intent) => ({
    status: intent.status,
    work_item_id: intent.work_item_id,
    created_at: intent.created_at,
    view: toWaitingIntentView(intent),
  }),
});

export const tasksProjector = recordProjector<TaskRecord>({
  name: 'tasks',
  table: 'tasks',
  records: (state) => state.tasks,
  columns: ['status', 'terminal', 'work_item_id', 'created_at'],
  row: (_state, task) => ({
    status: task.status,
    terminal: isTerminalTaskStatus(task.status),
    work_item_id: task.work_item_id,
    created_at: task.created_at,
    view: toTaskView(task),
  }),
});

/** `due` depends on the reader's clock: stored as null, computed by the query. */
export const timersProjector = recordProjector<TimerRecord>({
  name: 'timers',
  table: 'timers',
  records: (state) => state.timers,
  columns: ['status', 'fire_at'],
  row: (_state, timer) => ({ status: timer.status, fire_at: timer.fire_at, view: toTimerView(timer) }),
});

export const messagesProjector = recordProjector<MessageRecord>({
  name: 'messages',
  table: 'messages',
  records: (state) => state.messages,
  columns: ['status', 'priority_rank', 'seq', 'created_at'],
  // The state keeps no body once a message is processed: the write that processes it takes the
  // body from the state before, and the row keeps it through any later write (ADR 0042).
  keptViewFields: ['body'],
  row: (_state, message, previous) => ({
    status: message.status,
    priority_rank: PRIORITY_BAND_RANK[message.priority],
    seq: message.seq,
    created_at: message.created_at,
    view: toMessageView(message, message.body ?? previous?.body ?? null),
  }),
});

export const WAITING_PLANE_PROJECTORS = [waitingIntentsProjector, tasksProjector, timersProjector, messagesProjector];
