import type { AgentEvent } from '../agent/agent.events';
import { given } from '../testing/decider-spec';
import { AGENT, cmd, completed, created, NOW, picked, registered, updated } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { schedulingStateOf } from '../views/scheduling';
import type { TaskStatus } from './task.state';
import { taskTransition } from './task.decide';

const open = [registered(), created('w-1')];
const withTask = history(open, wcmd.createTask('t-1', { work_item_id: 'w-1', summary: 'run tests' }));
const running = history(withTask, wcmd.taskStatus('t-1', 'running'));

describe('CreateTask', () => {
  it('records a queued task', () => {
    given(open)
      .when(wcmd.createTask('t-1', { wait_policy: 'blocking', work_item_id: 'w-1', summary: ' run ' }))
      .then([
        {
          type: 'TaskCreated',
          data: {
            agent_id: AGENT,
            task_id: 't-1',
            kind: 'command',
            wait_policy: 'blocking',
            work_item_id: 'w-1',
            summary: 'run',
            status: 'queued',
            at: NOW,
          },
        },
      ]);
  });

  it('defaults to background', () => {
    given(open)
      .when(wcmd.createTask('t-1', { wait_policy: undefined }))
      .thenState((after) =>
        expect(after.tasks.get('t-1')).toMatchObject({
          wait_policy: 'background',
          status: 'queued',
          work_item_id: null,
        }),
      );
  });

  it('never makes the agent or the item wait by its presence, even when blocking', () => {
    given([...open, picked('w-1')])
      .when(wcmd.createTask('t-1', { wait_policy: 'blocking', work_item_id: 'w-1' }))
      .thenState((after) => {
        expect(schedulingStateOf(after, after.work_items.get('w-1')!)).toBe('runnable');
        expect(after.waiting_intents.values()).toEqual([]);
        expect(after.current_work_item_id).toBe('w-1');
      });
  });

  it('refuses a reused id, an unknown or completed item, and bad fields', () => {
    given(withTask).when(wcmd.createTask('t-1')).thenThrows('already_exists', { resource: 'task' });
    given(open)
      .when(wcmd.createTask('t-1', { work_item_id: 'w-9' }))
      .thenThrows('not_found', { resource: 'work_item' });
    given([...open, completed('w-1', 2)])
      .when(wcmd.createTask('t-1', { work_item_id: 'w-1' }))
      .thenThrows('invariant_violated');
    given(open)
      .when(wcmd.createTask('t-1', { wait_policy: 'eager' as never }))
      .thenThrows('validation_failed', { field: 'wait_policy' });
    given(open)
      .when(wcmd.createTask('t-1', { kind: '' }))
      .thenThrows('validation_failed', { field: 'kind' });
  });
});

describe('task status phases', () => {
  it.each<[TaskStatus, TaskStatus, string]>([
    ['queued', 'running', 'advance'],
    ['queued', 'completed', 'advance'],
    ['running', 'cancelling', 'advance'],
    ['running', 'failed', 'advance'],
    ['cancelling', 'cancelled', 'advance'],
    ['queued', 'cancelling', 'advance'],
    ['running', 'queued', 'stale'],
    ['cancelling', 'running', 'stale'],
    ['completed', 'running', 'stale'],
    ['completed', 'failed', 'stale'],
    ['interrupted', 'completed', 'stale'],
    ['completed', 'completed', 'repeat'],
    ['running', 'running', 'repeat'],
  ])('%s -> %s is %s', (current, requested, expected) => {
    expect(taskTransition(current, requested)).toBe(expected);
  });
});

describe('UpdateTaskStatus', () => {
  it('moves forward with the event of the new phase', () => {
    given(withTask)
      .when(wcmd.taskStatus('t-1', 'running', { detail: 'pid 42' }))
      .then([
        {
          type: 'TaskStarted',
          data: {
            agent_id: AGENT,
            task_id: 't-1',
            work_item_id: 'w-1',
            previous_status: 'queued',
            status: 'running',
            detail: 'pid 42',
            at: NOW,
          },
        },
      ]);
    given(running)
      .when(wcmd.taskStatus('t-1', 'cancelling'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TaskCancelling']);
        expect(after.tasks.get('t-1')!.status).toBe('cancelling');
      });
  });

  it('ignores a stale running after completed', () => {
    given(history(running, wcmd.taskStatus('t-1', 'completed')))
      .when(wcmd.taskStatus('t-1', 'running'))
      .thenNothing();
  });

  it('ignores another terminal after a terminal', () => {
    given(history(running, wcmd.taskStatus('t-1', 'completed')))
      .when(wcmd.taskStatus('t-1', 'failed', { message_id: 'm-x' }))
      .thenNothing();
  });

  it('is idempotent for the same terminal twice', () => {
    given(history(running, wcmd.taskStatus('t-1', 'completed')))
      .when(wcmd.taskStatus('t-1', 'completed', { message_id: 'm-x' }))
      .thenNothing();
  });

  it.each<[TaskStatus, string]>([
    ['completed', 'TaskCompleted'],
    ['failed', 'TaskFailed'],
    ['cancelled', 'TaskCancelled'],
    ['interrupted', 'TaskInterrupted'],
  ])('a terminal %s queues a task_result message after %s', (status, type) => {
    given(running)
      .when(wcmd.taskStatus('t-1', status, { detail: 'exit 0' }))
      .then([
        {
          type,
          data: {
            agent_id: AGENT,
            task_id: 't-1',
            work_item_id: 'w-1',
            previous_status: 'running',
            status,
            detail: 'exit 0',
            at: NOW,
          },
        } as AgentEvent,
        {
          type: 'MessageQueued',
          data: {
            agent_id: AGENT,
            message_id: `m-t-1-${status}`,
            kind: 'task_result',
            priority: 'next',
            authority: 'runtime_instruction',
            origin: 'task',
            body: { task_id: 't-1', task_kind: 'command', status, detail: 'exit 0', summary: 'run tests' },
            work_item_id: 'w-1',
            task_id: 't-1',
            correlation_id: null,
            causation_id: 't-1',
            liveness_only: false,
            at: NOW,
          },
        },
      ]);
  });

  it('needs a message id for a terminal status', () => {
    given(running)
      .when(wcmd.taskStatus('t-1', 'completed', { message_id: undefined }))
      .thenThrows('validation_failed', { field: 'message_id' });
  });

  it('refuses an unknown task and an unknown status', () => {
    given(open).when(wcmd.taskStatus('t-9', 'running')).thenThrows('not_found', { resource: 'task', task_id: 't-9' });
    given(withTask)
      .when(wcmd.taskStatus('t-1', 'done' as never))
      .thenThrows('validation_failed', { field: 'status' });
  });
});

describe('a terminal task and the waits on it', () => {
  const waitOnTask = wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1', reason: 'tests running' });
  const waiting = history(running, waitOnTask, wcmd.waitFor('i-a', null, { wake: 'task_result', resource: 't-1' }));

  it('resolves the matching intents, clears the blocker that still says the reason, then queues the result', () => {
    given(waiting)
      .when(wcmd.taskStatus('t-1', 'completed'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual([
          'TaskCompleted',
          'WaitingIntentResolved',
          'WaitingIntentResolved',
          'WorkItemUpdated',
          'MessageQueued',
        ]);
        expect(events[1].data).toMatchObject({ intent_id: 'i-1', task_id: 't-1', task_status: 'completed' });
        expect(events[3].data).toEqual({
          agent_id: AGENT,
          work_item_id: 'w-1',
          blocked_by: null,
          revision: 3,
          at: NOW,
        });
        expect(after.waiting_intents.get('i-1')).toMatchObject({ status: 'resolved', end_reason: 'task_result' });
        expect(after.waiting_intents.get('i-a')!.status).toBe('resolved');
        expect(after.work_items.get('w-1')).toMatchObject({ blocked_by: null, state: 'open' });
        expect(schedulingStateOf(after, after.work_items.get('w-1')!)).toBe('runnable');
      });
  });

  it('leaves a blocker the agent has since reworded', () => {
    const reworded = [...waiting, updated('w-1', { blocked_by: 'tests running, then review', revision: 3 }, NOW)];
    given(reworded)
      .when(wcmd.taskStatus('t-1', 'failed'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual([
          'TaskFailed',
          'WaitingIntentResolved',
          'WaitingIntentResolved',
          'MessageQueued',
        ]);
        expect(after.work_items.get('w-1')!.blocked_by).toBe('tests running, then review');
      });
  });

  it('leaves intents on other tasks and never re-picks the item', () => {
    const other = history(
      waiting,
      wcmd.createTask('t-2'),
      wcmd.waitFor('i-2', null, { wake: 'task_result', resource: 't-2' }),
    );
    given(other)
      .when(wcmd.taskStatus('t-1', 'completed'))
      .thenState((after) => {
        expect(after.waiting_intents.get('i-2')!.status).toBe('active');
        expect(after.current_work_item_id).toBeNull();
      });
  });

  it('clears a leftover recheck_at with the blocker', () => {
    const withRecheck = [...waiting, updated('w-1', { recheck_at: NOW, revision: 3 }, NOW)];
    given(withRecheck)
      .when(wcmd.taskStatus('t-1', 'completed'))
      .thenState((after) =>
        expect(after.work_items.get('w-1')).toMatchObject({ blocked_by: null, recheck_at: null, revision: 4 }),
      );
  });

  it('does not touch a completed item', () => {
    given(history(waiting, cmd.complete('w-1')))
      .when(wcmd.taskStatus('t-1', 'completed'))
      .thenState((_after, events) =>
        expect(typesOf(events)).toEqual(['TaskCompleted', 'WaitingIntentResolved', 'MessageQueued']),
      );
  });
});

describe('task results on a gated agent', () => {
  it.each<['stop' | 'pause']>([['stop'], ['pause']])('are still recorded after %s', (action) => {
    given(history(running, wcmd.control(action)))
      .when(wcmd.taskStatus('t-1', 'completed'))
      .thenState((after) => {
        expect(after.tasks.get('t-1')!.status).toBe('completed');
        expect(after.queue).toEqual(['m-t-1-completed']);
      });
  });
});
