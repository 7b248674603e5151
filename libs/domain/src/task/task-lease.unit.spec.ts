import { replay } from '../agent/agent.evolve';
import type { AgentCommand } from '../agent/agent.commands';
import { nextDueAt } from '../scheduler/next-due';
import { given } from '../testing/decider-spec';
import { AGENT, at, created, meta, picked, registered } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { listTasks } from '../views/task.view';
import { expiredTasks } from './task-lease';

// docs/domain-contract.md §3 Tasks (leases): an executor that stops heartbeating loses its task.
const TEN_MINUTES = 600_000;
const heartbeat = (taskId: string, now: string, expected?: number): AgentCommand => ({
  type: 'TaskHeartbeat',
  data: { task_id: taskId, ...(expected !== undefined && { expected_duration_ms: expected }) },
  meta: meta(now),
});
const expire = (taskId: string, now: string): AgentCommand => ({
  type: 'ExpireTaskLease',
  data: { task_id: taskId, message_id: `m-${taskId}-lease` },
  meta: meta(now),
});
const focused = [registered(), created('w-1'), picked('w-1')];
const leased = history(
  focused,
  wcmd.createTask('t-1', { expected_duration_ms: TEN_MINUTES, work_item_id: 'w-1' }),
  wcmd.taskStatus('t-1', 'running'),
);
const waiting = history(leased, wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }));

describe('CreateTask with expected_duration_ms', () => {
  it('records the lease: creation + expected_duration_ms', () => {
    given(focused)
      .when(wcmd.createTask('t-1', { expected_duration_ms: TEN_MINUTES }))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({
          expected_duration_ms: TEN_MINUTES,
          lease_expires_at: '2026-01-01T01:10:00.000Z',
        });
        expect(after.tasks.get('t-1')).toMatchObject({ expected_duration_ms: TEN_MINUTES, interrupt_reason: null });
      });
  });

  it('without it the task has no lease (the event carries no lease fields) and never expires', () => {
    given(focused)
      .when(wcmd.createTask('t-1'))
      .thenState((after, events) => {
        expect(events[0].data).not.toHaveProperty('expected_duration_ms');
        expect(after.tasks.get('t-1')).toMatchObject({ expected_duration_ms: null, lease_expires_at: null });
        expect(expiredTasks(after, at(100_000))).toEqual([]);
      });
  });

  it('refuses a lease out of range', () => {
    given(focused)
      .when(wcmd.createTask('t-1', { expected_duration_ms: 10 }))
      .thenThrows('validation_failed', { field: 'expected_duration_ms', rule: 'out_of_range' });
  });
});

describe('TaskHeartbeat', () => {
  it("renews the lease from now (for the task's length, or a new one)", () => {
    given(leased)
      .when(heartbeat('t-1', at(65)))
      .then([
        {
          type: 'TaskLeaseRenewed',
          data: {
            agent_id: AGENT,
            task_id: 't-1',
            expected_duration_ms: TEN_MINUTES,
            lease_expires_at: '2026-01-01T01:15:00.000Z',
            at: at(65),
          },
        },
      ]);
    given(leased)
      .when(heartbeat('t-1', at(65), 60_000))
      .thenState((after) =>
        expect(after.tasks.get('t-1')).toMatchObject({
          lease_expires_at: '2026-01-01T01:06:00.000Z',
          last_heartbeat_at: at(65),
        }),
      );
  });

  it('refuses a terminal task, and a task without a lease unless given one', () => {
    given(history(leased, wcmd.taskStatus('t-1', 'completed')))
      .when(heartbeat('t-1', at(65)))
      .thenThrows('invariant_violated', { rule: 'task_already_terminal' });
    given(history(focused, wcmd.createTask('t-2')))
      .when(heartbeat('t-2', at(65)))
      .thenThrows('validation_failed', { field: 'expected_duration_ms' });
  });
});

describe('a lapsed lease (ExpireTaskLease, the scheduler)', () => {
  it('the scheduler wakes at the lease end (nextDueAt) and finds the task expired then, not before', () => {
    const state = replay(leased);
    expect(nextDueAt(state)).toBe('2026-01-01T01:10:00.000Z');
    expect(expiredTasks(state, at(69))).toEqual([]);
    expect(expiredTasks(state, at(70)).map((t) => t.id)).toEqual(['t-1']);
    given(leased)
      .when(expire('t-1', at(69)))
      .thenNothing();
  });

  it('interrupts the task (reason lease_expired), triggers its waits (they stay active) and queues its task_result', () => {
    given(waiting)
      .when(expire('t-1', at(70)))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TaskInterrupted', 'WaitingIntentTriggered', 'MessageQueued']);
        expect(events[0].data).toMatchObject({
          status: 'interrupted',
          previous_status: 'running',
          reason: 'lease_expired',
        });
        expect(events[1].data).toMatchObject({ intent_id: 'i-1', source: 'task_lease', event_id: 't-1' });
        expect(after.tasks.get('t-1')).toMatchObject({ status: 'interrupted', interrupt_reason: 'lease_expired' });
        expect(after.waiting_intents.get('i-1')).toMatchObject({ status: 'active', trigger_count: 1 });
        expect(after.messages.get('m-t-1-lease')).toMatchObject({
          kind: 'task_result',
          work_item_id: 'w-1',
          body: expect.objectContaining({ task_id: 't-1', status: 'interrupted', detail: 'lease_expired' }),
        });
        expect(nextDueAt(after)).toBeNull();
        expect(listTasks(after, { now: at(70) }).items[0]).toMatchObject({ status: 'interrupted', overdue: false });
      });
  });

  it('GET tasks marks an active task past its expected end as overdue', () => {
    expect(listTasks(replay(leased), { now: at(71) }).items[0]).toMatchObject({ status: 'running', overdue: true });
    expect(listTasks(replay(leased), { now: at(65) }).items[0]).toMatchObject({ overdue: false });
  });

  it('the one exception to forward-only: a later terminal from the executor replaces it and is delivered', () => {
    const lapsed = history(waiting, expire('t-1', at(70)));
    given(lapsed)
      .when(wcmd.taskStatus('t-1', 'completed', { detail: 'late but done' }))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TaskCompleted', 'WaitingIntentResolved', 'WorkItemUpdated', 'MessageQueued']);
        expect(events[0].data).toMatchObject({ previous_status: 'interrupted', status: 'completed' });
        expect(after.tasks.get('t-1')).toMatchObject({ status: 'completed', interrupt_reason: null });
        expect(after.messages.get('m-t-1-completed')).toMatchObject({ kind: 'task_result', status: 'queued' });
      });
    const done = history(lapsed, wcmd.taskStatus('t-1', 'completed'));
    given(done).when(wcmd.taskStatus('t-1', 'failed')).thenNothing();
    // An interruption the executor reported itself is never replaced.
    const own = history(leased, wcmd.taskStatus('t-1', 'interrupted'));
    given(own).when(wcmd.taskStatus('t-1', 'completed')).thenNothing();
  });
});
