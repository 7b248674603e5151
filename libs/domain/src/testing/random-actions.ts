import fc from 'fast-check';
import type { AgentCommand } from '../agent/agent.commands';
import type { MessageKind, MessagePriority } from '../queue/message.state';
import type { TerminalKind } from '../turn/turn.state';
import type { WaitWake } from '../waiting-intent/waiting-intent.state';
import { at, cmd, meta } from './fixtures';
import { tcmd } from './turn-fixtures';
import { wcmd } from './waiting-fixtures';
import { activation, apply, type Stream, workerStep } from './worker-simulation';

// Random agent lives for property specs: a small vocabulary of what callers, hosts and the worker
// do, each turned into commands against the current state (refusals are part of the game).

const ITEM = fc.constantFrom('w-1', 'w-2', 'w-3');
const PICK = fc.nat(7);

export type Action =
  | { t: 'create'; id: string; needs: boolean }
  | { t: 'pick'; id: string }
  | { t: 'block'; id: string; recheck: number | null }
  | { t: 'unblock'; id: string }
  | { t: 'todo'; id: string }
  | { t: 'complete'; id: string }
  | { t: 'wait'; id: string | null; wake: WaitWake; enqueue: boolean }
  | { t: 'trigger'; n: number; payload: boolean }
  | { t: 'task'; item: string | null }
  | { t: 'taskStatus'; n: number; status: 'running' | 'completed' | 'failed' }
  | { t: 'timer'; minutes: number }
  | { t: 'hint'; body: boolean }
  | { t: 'enqueue'; kind: MessageKind; priority: MessagePriority }
  | { t: 'drop'; n: number }
  | { t: 'control'; action: 'stop' | 'pause' | 'resume' }
  | { t: 'activate' }
  | { t: 'heartbeat' }
  | { t: 'round'; text: boolean; complete: boolean }
  | { t: 'closeRound' }
  | { t: 'terminal'; kind: TerminalKind }
  | { t: 'worker' }
  | { t: 'advance'; minutes: number };

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

/**
 * Actions on the work items `item` names, weighted so that lives reach turns, rounds and
 * completions (and stop rarely).
 */
export const actionsOn = (item: fc.Arbitrary<string>): fc.Arbitrary<Action> =>
  fc.oneof(
    w(4, fc.record({ t: fc.constant('create' as const), id: item, needs: fc.boolean() })),
    w(3, fc.record({ t: fc.constant('pick' as const), id: item })),
    w(2, fc.record({ t: fc.constant('block' as const), id: item, recheck: fc.option(fc.nat(20)) })),
    w(1, fc.record({ t: fc.constant('unblock' as const), id: item })),
    w(2, fc.record({ t: fc.constant('todo' as const), id: item })),
    w(1, fc.record({ t: fc.constant('complete' as const), id: item })),
    w(
      2,
      fc.record({
        t: fc.constant('wait' as const),
        id: fc.option(item),
        wake: fc.constantFrom<WaitWake>('operator_input', 'task_result', 'external', 'timer'),
        enqueue: fc.boolean(),
      }),
    ),
    w(2, fc.record({ t: fc.constant('trigger' as const), n: PICK, payload: fc.boolean() })),
    w(1, fc.record({ t: fc.constant('task' as const), item: fc.option(item) })),
    w(
      2,
      fc.record({
        t: fc.constant('taskStatus' as const),
        n: PICK,
        status: fc.constantFrom('running' as const, 'completed' as const, 'failed' as const),
      }),
    ),
    w(1, fc.record({ t: fc.constant('timer' as const), minutes: fc.nat(30) })),
    w(1, fc.record({ t: fc.constant('hint' as const), body: fc.boolean() })),
    w(
      3,
      fc.record({
        t: fc.constant('enqueue' as const),
        kind: fc.constantFrom<MessageKind>('operator_prompt', 'webhook_event', 'internal_followup', 'control'),
        priority: fc.constantFrom<MessagePriority>('interject', 'next', 'normal', 'background'),
      }),
    ),
    w(1, fc.record({ t: fc.constant('drop' as const), n: PICK })),
    w(
      1,
      fc.record({
        t: fc.constant('control' as const),
        action: fc.constantFrom('stop' as const, 'pause' as const, 'resume' as const, 'resume' as const),
      }),
    ),
    w(5, fc.constant({ t: 'activate' as const })),
    w(1, fc.constant({ t: 'heartbeat' as const })),
    w(4, fc.record({ t: fc.constant('round' as const), text: fc.boolean(), complete: fc.boolean() })),
    w(1, fc.constant({ t: 'closeRound' as const })),
    w(
      3,
      fc.record({
        t: fc.constant('terminal' as const),
        kind: fc.constantFrom<TerminalKind>(
          'completed',
          'completed',
          'aborted',
          'failed',
          'interrupted',
          'baseline_over_budget',
        ),
      }),
    ),
    w(5, fc.constant({ t: 'worker' as const })),
    w(2, fc.record({ t: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 10 }) })),
  );

/** Actions on three work items (w-1, w-2, w-3). */
export const actionArb: fc.Arbitrary<Action> = actionsOn(ITEM);

export type World = { stream: Stream; minute: number };

const nth = <T>(values: T[], n: number): T | undefined => values[n % Math.max(1, values.length)];
const withNow = (command: AgentCommand, now: string): AgentCommand => ({ ...command, meta: meta(now) });

function itemCommand(a: Action, now: string, seq: number): AgentCommand | null {
  switch (a.t) {
    case 'create':
      return cmd.create(a.id, a.needs ? { plan_status: 'needs_input' } : {});
    case 'pick':
      return cmd.pick(a.id, 'switch');
    case 'block':
      return cmd.update(a.id, { blocked_by: 'blocked', ...(a.recheck !== null && { recheck_at: at(60 + a.recheck) }) });
    case 'unblock':
      return cmd.update(a.id, { blocked_by: null });
    case 'todo':
      return cmd.update(a.id, { todo_list: [{ text: `step ${seq}`, state: 'pending' }] });
    case 'complete':
      return cmd.complete(a.id);
    case 'task':
      return wcmd.createTask(`t-${seq}`, a.item === null ? {} : { work_item_id: a.item });
    case 'timer':
      return wcmd.createTimer(`tm-${seq}`, { fire_at: at(60 + a.minutes) }, now);
    case 'hint':
      return wcmd.wakeHint({ message_id: `m-h${seq}`, ...(a.body && { body: 'news' }) }, now);
    case 'enqueue':
      return wcmd.enqueue(`m-${seq}`, { kind: a.kind, priority: a.priority, authority: 'operator_instruction' });
    case 'control':
      return wcmd.control(a.action);
    default:
      return null;
  }
}

function waitCommand(w: World, a: Extract<Action, { t: 'wait' }>, seq: number): AgentCommand {
  const tasks = w.stream.state.tasks.keys();
  const data = {
    wake: a.wake,
    delivery_mode: a.enqueue ? ('enqueue_message' as const) : ('wake_hint' as const),
    ...(a.wake === 'task_result' && { resource: nth(tasks, seq) ?? 't-none' }),
    ...(a.wake === 'external' && { resource: 'pr', callback_token_hash: `sha256:${seq}` }),
    ...(a.wake === 'timer' && { fire_at: at(w.minute + 5), timer_id: `tw-${seq}` }),
  };
  return wcmd.waitFor(`i-${seq}`, a.id, data);
}

function planeCommand(w: World, a: Action, seq: number): AgentCommand | null {
  const s = w.stream.state;
  switch (a.t) {
    case 'wait':
      return waitCommand(w, a, seq);
    case 'trigger':
      return wcmd.trigger(nth(s.waiting_intents.keys(), a.n) ?? 'i-none', {
        message_id: `m-t${seq}`,
        ...(a.payload && { payload: 'event' }),
      });
    case 'taskStatus':
      return wcmd.taskStatus(nth(s.tasks.keys(), a.n) ?? 't-none', a.status, { message_id: `m-r${seq}` });
    case 'drop':
      return wcmd.drop(nth(s.queue, a.n) ?? 'm-none');
    default:
      return null;
  }
}

function turnCommands(w: World, a: Action, seq: number): AgentCommand[] {
  const turnId = w.stream.state.open_turn_id ?? 'turn-none';
  const roundId = w.stream.state.turns.get(turnId)?.open_round_id ?? 'r-none';
  switch (a.t) {
    case 'heartbeat':
      return [tcmd.heartbeat(turnId)];
    case 'round': {
      const focus = w.stream.state.current_work_item_id;
      const round = tcmd.round(turnId, `r-${seq}`, a.text ? 'Report.' : undefined, [
        { tool_call_id: `c-${seq}`, name: 'CompleteWorkItem' },
      ]);
      return a.complete && focus !== null ? [round, tcmd.completeIn(focus, `r-${seq}`)] : [round];
    }
    case 'closeRound':
      return [tcmd.closeRound(turnId, roundId)];
    case 'terminal':
      return [tcmd.terminal(turnId, a.kind, 'last words')];
    default:
      return [];
  }
}

/** One random action played on the world (refused commands change nothing). */
export function play(w: World, a: Action): World {
  const now = at(w.minute);
  if (a.t === 'advance') return { ...w, minute: w.minute + a.minutes };
  if (a.t === 'worker') return { ...w, stream: workerStep(w.stream, now) };
  if (a.t === 'activate') return { ...w, stream: activation(w.stream, now).stream };
  const stream = { ...w.stream, seq: w.stream.seq + 1 };
  const seq = stream.seq;
  const commands = [itemCommand(a, now, seq) ?? planeCommand(w, a, seq), ...turnCommands(w, a, seq)].filter(
    (c): c is AgentCommand => c !== null,
  );
  return { ...w, stream: commands.reduce((s, c) => apply(s, withNow(c, now)), stream) };
}
