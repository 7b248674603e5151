import type { AgentEvent } from '../agent/agent.events';
import { given } from '../testing/decider-spec';
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
import type { WorkItemUpdated } from './work-item.events';

const agent = [registered()];
const open = [...agent, created('w-1')];
const focused = [...open, picked('w-1')];

const updatedEvent = (fields: Omit<WorkItemUpdated['data'], 'agent_id' | 'work_item_id' | 'at'>): AgentEvent => ({
  type: 'WorkItemUpdated',
  data: { agent_id: AGENT, work_item_id: 'w-1', ...fields, at: NOW },
});
const released = (reason: 'work_item_blocked' | 'work_item_needs_input'): AgentEvent => ({
  type: 'WorkItemFocusReleased',
  data: { agent_id: AGENT, work_item_id: 'w-1', reason, at: NOW },
});

describe('UpdateWorkItem on an open item', () => {
  it('records only the changed fields and the next revision', () => {
    given(open)
      .when(cmd.update('w-1', { objective: 'objective of w-1', plan_status: 'ready' }))
      .then([updatedEvent({ plan_status: 'ready', revision: 2 })]);
  });

  it('applies the change, the revision and updated_at', () => {
    given(open)
      .when(cmd.update('w-1', { objective: ' new aim ', todo_list: [todo(' a ')] }))
      .thenState((after) => {
        expect(after.work_items.get('w-1')).toMatchObject({
          objective: 'new aim',
          todo_list: [todo('a')],
          revision: 2,
          updated_at: NOW,
          created_at: created('w-1').data.at,
        });
      });
  });

  it('bumps the revision once per change', () => {
    given([...open, updated('w-1', { plan_status: 'ready', revision: 2 })])
      .when(cmd.update('w-1', { objective: 'x' }))
      .then([updatedEvent({ objective: 'x', revision: 3 })]);
  });

  it('replaces the whole todo list', () => {
    given([...agent, created('w-1', { todo_list: [todo('a'), todo('b')] })])
      .when(cmd.update('w-1', { todo_list: [todo('c')] }))
      .thenState((after) => expect(after.work_items.get('w-1')!.todo_list).toEqual([todo('c')]));
  });

  it('records nothing when no field is given', () => {
    given(open).when(cmd.update('w-1')).thenNothing();
  });

  it('records nothing when every given field already has that value', () => {
    given([...agent, created('w-1', { todo_list: [todo('a')] })])
      .when(
        cmd.update('w-1', {
          objective: '  objective of w-1 ',
          plan_status: 'draft',
          todo_list: [todo('a')],
          blocked_by: null,
        }),
      )
      .thenNothing();
  });

  it('refuses a completed item', () => {
    given([...open, completed('w-1', 2)])
      .when(cmd.update('w-1', { objective: 'x' }))
      .thenThrows('invariant_violated', { rule: 'work_item_completed', work_item_id: 'w-1' });
  });

  it('refuses an unknown item', () => {
    given(agent)
      .when(cmd.update('w-9', { objective: 'x' }))
      .thenThrows('not_found', { resource: 'work_item' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['objective of 501 characters', { objective: 'o'.repeat(501) }, 'objective'],
    ['blank objective', { objective: ' ' }, 'objective'],
    ['101 todos', { todo_list: Array.from({ length: 101 }, () => todo('x')) }, 'todo_list'],
    ['blocked_by of 2001 characters', { blocked_by: 'b'.repeat(2001) }, 'blocked_by'],
    ['blank blocked_by', { blocked_by: '   ' }, 'blocked_by'],
    ['recheck_at that is not RFC 3339', { recheck_at: 'tomorrow' }, 'recheck_at'],
    ['unknown plan status', { plan_status: 'done' }, 'plan_status'],
  ])('refuses a %s', (_name, data, field) => {
    given(open).when(cmd.update('w-1', data)).thenThrows('validation_failed', { field });
  });

  it('accepts blocked_by of exactly 2000 characters after trimming', () => {
    given(open)
      .when(cmd.update('w-1', { blocked_by: `  ${'b'.repeat(2000)}  ` }))
      .thenState((after) => expect(after.work_items.get('w-1')!.blocked_by).toHaveLength(2000));
  });

  it('sets and clears recheck_at', () => {
    given(open)
      .when(cmd.update('w-1', { recheck_at: at(90) }))
      .then([updatedEvent({ recheck_at: at(90), revision: 2 })]);
    given([...open, updated('w-1', { recheck_at: at(90), revision: 2 })])
      .when(cmd.update('w-1', { recheck_at: null }))
      .then([updatedEvent({ recheck_at: null, revision: 3 })]);
  });
});

describe('UpdateWorkItem and focus', () => {
  it('setting blocked_by on the focused item releases the focus in the same decision', () => {
    given(focused)
      .when(cmd.update('w-1', { blocked_by: 'waiting for CI' }))
      .then([updatedEvent({ blocked_by: 'waiting for CI', revision: 2 }), released('work_item_blocked')]);
  });

  it('setting needs_input on the focused item releases the focus', () => {
    given(focused)
      .when(cmd.update('w-1', { plan_status: 'needs_input' }))
      .then([updatedEvent({ plan_status: 'needs_input', revision: 2 }), released('work_item_needs_input')]);
  });

  it('names needs_input when both are set at once', () => {
    given(focused)
      .when(cmd.update('w-1', { plan_status: 'needs_input', blocked_by: 'x' }))
      .thenState((after, events) => {
        expect(events.map((e) => e.type)).toEqual(['WorkItemUpdated', 'WorkItemFocusReleased']);
        expect(events[1].data).toMatchObject({ reason: 'work_item_needs_input' });
        expect(after.current_work_item_id).toBeNull();
      });
  });

  it('re-asserting the blocker of a focused (inspected) item releases the focus without an update', () => {
    const inspected = [...open, updated('w-1', { blocked_by: 'CI', revision: 2 }), picked('w-1')];
    given(inspected)
      .when(cmd.update('w-1', { blocked_by: 'CI' }))
      .then([released('work_item_blocked')]);
  });

  it('blocking an item that is not the focus leaves the focus alone', () => {
    given([...open, created('w-2'), picked('w-2')])
      .when(cmd.update('w-1', { blocked_by: 'x' }))
      .thenState((after, events) => {
        expect(events.map((e) => e.type)).toEqual(['WorkItemUpdated']);
        expect(after.current_work_item_id).toBe('w-2');
      });
  });

  it('other changes on the focused item keep the focus', () => {
    given(focused)
      .when(cmd.update('w-1', { plan_status: 'ready', todo_list: [todo('a')] }))
      .thenState((after) => expect(after.current_work_item_id).toBe('w-1'));
  });

  it('blocked_by: null clears the blocker (and a leftover recheck_at) and never re-picks the item', () => {
    const blocked = [
      ...focused,
      updated('w-1', { blocked_by: 'CI', recheck_at: at(90), revision: 2 }),
      released('work_item_blocked'),
    ];
    given(blocked)
      .when(cmd.update('w-1', { blocked_by: null }))
      .thenState((after, events) => {
        expect(events).toEqual([updatedEvent({ blocked_by: null, recheck_at: null, revision: 3 })]);
        expect(after.work_items.get('w-1')).toMatchObject({ blocked_by: null, recheck_at: null });
        expect(after.current_work_item_id).toBeNull();
      });
  });

  it('blocked_by: null with a new recheck_at keeps the given recheck_at', () => {
    const blocked = [...open, updated('w-1', { blocked_by: 'CI', recheck_at: at(90), revision: 2 })];
    given(blocked)
      .when(cmd.update('w-1', { blocked_by: null, recheck_at: at(120) }))
      .then([updatedEvent({ blocked_by: null, recheck_at: at(120), revision: 3 })]);
  });
});

describe('UpdateWorkItem with a fresh plan artifact descriptor', () => {
  const fresh = artifact('w-1', 'sha256:bbb', { byte_size: 12, preview: 'the new plan', updated_at: at(30) });
  const refreshed = (revision: number): AgentEvent => ({
    type: 'PlanArtifactRefreshed',
    data: {
      agent_id: AGENT,
      work_item_id: 'w-1',
      plan_artifact: fresh,
      previous_hash: 'sha256:aaa',
      revision,
      at: NOW,
    },
  });

  it('records PlanArtifactRefreshed before the update, each with its own revision', () => {
    given(open)
      .when(cmd.update('w-1', { plan_status: 'ready', plan_artifact: fresh }))
      .then([refreshed(2), updatedEvent({ plan_status: 'ready', revision: 3 })]);
  });

  it('records the refresh alone when no other field changes', () => {
    given(open)
      .when(cmd.update('w-1', { plan_artifact: fresh }))
      .thenState((after, events) => {
        expect(events).toEqual([refreshed(2)]);
        expect(after.work_items.get('w-1')).toMatchObject({ plan_artifact: fresh, revision: 2, updated_at: NOW });
      });
  });

  it('records nothing when the descriptor names the same bytes (only its mtime moved)', () => {
    given(open)
      .when(cmd.update('w-1', { plan_artifact: artifact('w-1', 'sha256:aaa', { updated_at: at(30) }) }))
      .thenNothing();
  });

  it("records nothing when only the absolute path moved (another replica's AGENT_HOME, an imported agent)", () => {
    const elsewhere = artifact('w-1', 'sha256:aaa', { path: '/srv/replica-2/agent-home/a/work-items/w-1/plan.md' });
    given(open)
      .when(cmd.update('w-1', { plan_artifact: elsewhere }))
      .thenNothing();
  });

  it('records a refresh when the file is another one of the home (relative_path) with the same bytes', () => {
    const moved = artifact('w-1', 'sha256:aaa', { relative_path: 'work-items/w-1/plan-v2.md' });
    given(open)
      .when(cmd.update('w-1', { plan_artifact: moved }))
      .thenState((_after, events) => expect(events.map((e) => e.type)).toEqual(['PlanArtifactRefreshed']));
  });
});
