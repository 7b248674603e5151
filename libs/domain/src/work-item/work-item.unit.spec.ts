import type { AgentEvent } from '../agent/agent.events';
import { given } from '../testing/decider-spec';
import type { WorkItemCompleted } from './work-item.events';
import {
  AGENT,
  artifact,
  at,
  cmd,
  completed,
  created,
  NOW,
  picked,
  registered,
  todo,
  updated,
} from '../testing/fixtures';

const agent = [registered()];

describe('CreateWorkItem', () => {
  it('creates an open draft item at revision 1 with an empty todo list by default', () => {
    given(agent)
      .when(cmd.create('w-1'))
      .then([
        {
          type: 'WorkItemCreated',
          data: {
            agent_id: AGENT,
            work_item_id: 'w-1',
            objective: 'objective of w-1',
            plan_status: 'draft',
            todo_list: [],
            plan_artifact: artifact('w-1'),
            revision: 1,
            at: NOW,
          },
        },
      ]);
  });

  it('keeps the given plan status and todo list, trimmed', () => {
    const command = cmd.create('w-1', {
      objective: '  ship it  ',
      plan_status: 'ready',
      todo_list: [{ text: ' a ', state: 'in_progress' }],
    });
    given(agent)
      .when(command)
      .thenState((after) => {
        expect(after.work_items.get('w-1')).toMatchObject({
          objective: 'ship it',
          plan_status: 'ready',
          todo_list: [todo('a', 'in_progress')],
          state: 'open',
          blocked_by: null,
          recheck_at: null,
          result_summary: null,
          revision: 1,
          created_at: NOW,
          updated_at: NOW,
        });
      });
  });

  it('does not pick the new item (creating is not picking)', () => {
    given(agent)
      .when(cmd.create('w-1'))
      .thenState((after) => expect(after.current_work_item_id).toBeNull());
  });

  it('keeps an existing focus', () => {
    given([...agent, created('w-1'), picked('w-1')])
      .when(cmd.create('w-2'))
      .thenState((after) => expect(after.current_work_item_id).toBe('w-1'));
  });

  it('accepts a generated work_<32 hex> id', () => {
    const id = `work_${'ab'.repeat(16)}`;
    given(agent)
      .when(cmd.create(id))
      .thenState((after) => expect(after.work_items.get(id)).toBeDefined());
  });

  it('refuses a duplicate id', () => {
    given([...agent, created('w-1')])
      .when(cmd.create('w-1'))
      .thenThrows('already_exists', { work_item_id: 'w-1' });
  });

  it('refuses a duplicate id even when the item is completed', () => {
    given([...agent, created('w-1'), completed('w-1', 2)])
      .when(cmd.create('w-1'))
      .thenThrows('already_exists');
  });

  it.each([['bad id'], ['/etc'], ['']])('refuses the work item id %j', (id) => {
    given(agent).when(cmd.create(id)).thenThrows('validation_failed', { field: 'work_item_id' });
  });

  describe('objective', () => {
    it('accepts exactly 500 characters after trimming', () => {
      given(agent)
        .when(cmd.create('w-1', { objective: ` ${'o'.repeat(500)} ` }))
        .thenState((after) => expect(after.work_items.get('w-1')!.objective).toHaveLength(500));
    });

    it('refuses 501 characters', () => {
      given(agent)
        .when(cmd.create('w-1', { objective: 'o'.repeat(501) }))
        .thenThrows('validation_failed', { field: 'objective', rule: 'too_long', max_length: 500 });
    });

    it.each([[''], ['   '], ['\n\t']])('refuses the blank objective %j', (objective) => {
      given(agent)
        .when(cmd.create('w-1', { objective }))
        .thenThrows('validation_failed', { field: 'objective', rule: 'empty' });
    });
  });

  describe('todo_list', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => todo(`step ${i}`));

    it('accepts 100 items', () => {
      given(agent)
        .when(cmd.create('w-1', { todo_list: many(100) }))
        .thenState((after) => expect(after.work_items.get('w-1')!.todo_list).toHaveLength(100));
    });

    it('refuses 101 items', () => {
      given(agent)
        .when(cmd.create('w-1', { todo_list: many(101) }))
        .thenThrows('validation_failed', { field: 'todo_list', rule: 'too_many_items', max_items: 100 });
    });

    it('accepts a 500-character text and refuses 501', () => {
      given(agent)
        .when(cmd.create('w-1', { todo_list: [todo('t'.repeat(500))] }))
        .thenState((after) => expect(after.work_items.get('w-1')!.todo_list[0].text).toHaveLength(500));
      given(agent)
        .when(cmd.create('w-1', { todo_list: [todo('t'.repeat(501))] }))
        .thenThrows('validation_failed', { field: 'todo_list[0].text', rule: 'too_long' });
    });

    it('refuses a blank text', () => {
      given(agent)
        .when(cmd.create('w-1', { todo_list: [todo('ok'), todo('  ')] }))
        .thenThrows('validation_failed', { field: 'todo_list[1].text', rule: 'empty' });
    });

    it('refuses an unknown todo state', () => {
      const todoList = [{ text: 'x', state: 'blocked' }] as never;
      given(agent)
        .when(cmd.create('w-1', { todo_list: todoList }))
        .thenThrows('validation_failed', { field: 'todo_list[0].state', rule: 'invalid_enum' });
    });
  });

  it('refuses an unknown plan status', () => {
    given(agent)
      .when(cmd.create('w-1', { plan_status: 'done' as never }))
      .thenThrows('validation_failed', { field: 'plan_status', rule: 'invalid_enum' });
  });

  it('refuses a malformed plan artifact descriptor', () => {
    given(agent)
      .when(cmd.create('w-1', { plan_artifact: { ...artifact('w-1'), hash: 'md5:x' } }))
      .thenThrows('validation_failed', { field: 'plan_artifact' });
  });

  it('records the descriptor without an absolute path a writer still sends (events hold nothing machine-specific)', () => {
    const withPath = artifact('w-1', 'sha256:aaa', { path: '/srv/replica-1/agent-home/a/work-items/w-1/plan.md' });
    given(agent)
      .when(cmd.create('w-1', { plan_artifact: withPath }))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ plan_artifact: artifact('w-1') });
        expect((events[0].data as { plan_artifact: object }).plan_artifact).not.toHaveProperty('path');
        expect(after.work_items.get('w-1')?.plan_artifact).not.toHaveProperty('path');
      });
  });

  it.each(['/abs/work-items/w-1/plan.md', '../w-1/plan.md', 'work-items//plan.md', 'work-items\\w-1\\plan.md', ''])(
    'refuses a relative_path that is not relative to the agent home: %j',
    (relative_path) => {
      given(agent)
        .when(cmd.create('w-1', { plan_artifact: artifact('w-1', 'sha256:aaa', { relative_path }) }))
        .thenThrows('validation_failed', { field: 'plan_artifact', rule: 'invalid_descriptor' });
    },
  );
});

describe('CompleteWorkItem', () => {
  const completedEvent = (overrides: Partial<WorkItemCompleted['data']> = {}): AgentEvent => ({
    type: 'WorkItemCompleted',
    data: {
      agent_id: AGENT,
      work_item_id: 'w-1',
      round_id: null,
      completed_with_unfinished_todos: false,
      unfinished_todo_count: 0,
      pending_todo_count: 0,
      in_progress_todo_count: 0,
      revision: 2,
      at: NOW,
      ...overrides,
    },
  });
  const released: AgentEvent = {
    type: 'WorkItemFocusReleased',
    data: { agent_id: AGENT, work_item_id: 'w-1', reason: 'work_item_completed', at: NOW },
  };

  it('completes an open, unfocused item without a focus release', () => {
    given([...agent, created('w-1')])
      .when(cmd.complete('w-1'))
      .then([completedEvent()]);
  });

  it('releases the focus when the item is focused, in the same decision', () => {
    given([...agent, created('w-1'), picked('w-1')])
      .when(cmd.complete('w-1'))
      .then([completedEvent(), released]);
    given([...agent, created('w-1'), picked('w-1')])
      .when(cmd.complete('w-1'))
      .thenState((after) => expect(after.current_work_item_id).toBeNull());
  });

  it('leaves another item focused', () => {
    given([...agent, created('w-1'), created('w-2'), picked('w-2')])
      .when(cmd.complete('w-1'))
      .thenState((after) => expect(after.current_work_item_id).toBe('w-2'));
  });

  it('clears blocked_by and recheck_at, bumps the revision and records the round', () => {
    const history = [...agent, created('w-1'), updated('w-1', { blocked_by: 'CI', recheck_at: at(90), revision: 2 })];
    given(history)
      .when(cmd.complete('w-1', 'round-7'))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ round_id: 'round-7', revision: 3 });
        expect(after.work_items.get('w-1')).toMatchObject({
          state: 'completed',
          completed_at: NOW,
          blocked_by: null,
          recheck_at: null,
          revision: 3,
          updated_at: NOW,
        });
      });
  });

  it('counts unfinished todos without refusing', () => {
    const todoList = [todo('a', 'completed'), todo('b', 'pending'), todo('c', 'in_progress'), todo('d', 'pending')];
    given([...agent, created('w-1', { todo_list: todoList })])
      .when(cmd.complete('w-1'))
      .then([
        completedEvent({
          completed_with_unfinished_todos: true,
          unfinished_todo_count: 3,
          pending_todo_count: 2,
          in_progress_todo_count: 1,
        }),
      ]);
  });

  it('reports false/0 when every todo is done', () => {
    given([...agent, created('w-1', { todo_list: [todo('a', 'completed')] })])
      .when(cmd.complete('w-1'))
      .then([completedEvent()]);
  });

  it('records nothing when the item is already completed', () => {
    given([...agent, created('w-1'), completed('w-1', 2)])
      .when(cmd.complete('w-1'))
      .thenNothing();
  });

  it('refuses an unknown item', () => {
    given(agent).when(cmd.complete('w-404')).thenThrows('not_found', { resource: 'work_item', work_item_id: 'w-404' });
  });

  it('refuses a malformed round id', () => {
    given([...agent, created('w-1')])
      .when(cmd.complete('w-1', 'bad round'))
      .thenThrows('validation_failed', { field: 'round_id' });
  });
});
