import type { AgentEvent } from '../agent/agent.events';
import { given } from '../testing/decider-spec';
import { AGENT, at, cmd, completed, created, NOW, picked, registered, updated } from '../testing/fixtures';
import { MISSING_PICK_REASON_WARNING } from './focus.decide';
import type { WorkItemPicked } from './focus.events';

const agent = [registered()];
const twoOpen = [...agent, created('w-1'), created('w-2', { at: at(1) })];

const pickedEvent = (data: Partial<WorkItemPicked['data']>): AgentEvent => ({
  type: 'WorkItemPicked',
  data: {
    agent_id: AGENT,
    work_item_id: 'w-2',
    previous_work_item_id: null,
    current_work_item_id: 'w-2',
    reason: null,
    previous_readiness: null,
    current_readiness: 'runnable',
    switch_kind: 'explicit_focus_pick',
    current_focus_mode: 'runnable',
    reason_required: false,
    reason_missing: true,
    warnings: [],
    at: NOW,
    ...data,
  },
});

describe('PickWorkItem with no focus', () => {
  it('records an explicit pick with every field', () => {
    given(twoOpen)
      .when(cmd.pick('w-2', ' start here '))
      .then([pickedEvent({ reason: 'start here', reason_missing: false })]);
  });

  it('needs no reason and warns about nothing', () => {
    given(twoOpen)
      .when(cmd.pick('w-2'))
      .then([pickedEvent({})]);
  });

  it('sets the focus without touching the item revision or updated_at', () => {
    given(twoOpen)
      .when(cmd.pick('w-2'))
      .thenState((after) => {
        expect(after.current_work_item_id).toBe('w-2');
        expect(after.work_items.get('w-2')).toMatchObject({ revision: 1, updated_at: at(1) });
      });
  });
});

describe('PickWorkItem leaving a runnable focus', () => {
  const focused = [...twoOpen, picked('w-1')];

  it('is an override that requires a reason', () => {
    given(focused)
      .when(cmd.pick('w-2', 'operator asked'))
      .then([
        pickedEvent({
          previous_work_item_id: 'w-1',
          previous_readiness: 'runnable',
          switch_kind: 'explicit_focus_override',
          reason: 'operator asked',
          reason_required: true,
          reason_missing: false,
        }),
      ]);
  });

  it.each([[undefined], [''], ['   ']])('succeeds without a reason (%j) but warns', (reason) => {
    given(focused)
      .when(cmd.pick('w-2', reason))
      .thenState((after, events) => {
        expect(after.current_work_item_id).toBe('w-2');
        expect(events[0].data).toMatchObject({
          switch_kind: 'explicit_focus_override',
          reason: null,
          reason_required: true,
          reason_missing: true,
          warnings: [expect.objectContaining({ kind: MISSING_PICK_REASON_WARNING, message: expect.any(String) })],
        });
      });
  });

  it('refuses a reason over 2000 characters', () => {
    given(focused)
      .when(cmd.pick('w-2', 'r'.repeat(2001)))
      .thenThrows('validation_failed', { field: 'reason' });
  });
});

describe('PickWorkItem leaving a focus that is not runnable', () => {
  it('is a plain pick: no reason required, no warning', () => {
    const inspected = [...twoOpen, updated('w-1', { blocked_by: 'CI', revision: 2 }), picked('w-1')];
    given(inspected)
      .when(cmd.pick('w-2'))
      .then([pickedEvent({ previous_work_item_id: 'w-1', previous_readiness: 'blocked' })]);
  });
});

describe('PickWorkItem of the current focus', () => {
  it('records a same_work_item pick without requiring a reason', () => {
    given([...twoOpen, picked('w-2')])
      .when(cmd.pick('w-2'))
      .then([
        pickedEvent({
          previous_work_item_id: 'w-2',
          previous_readiness: 'runnable',
          switch_kind: 'same_work_item',
        }),
      ]);
  });
});

describe('PickWorkItem of an item that is not runnable', () => {
  it('allows a blocked item for inspection and leaves it blocked', () => {
    given([...twoOpen, updated('w-2', { blocked_by: 'CI', revision: 2 })])
      .when(cmd.pick('w-2'))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ current_readiness: 'blocked', current_focus_mode: 'inspection' });
        expect(after.current_work_item_id).toBe('w-2');
        expect(after.work_items.get('w-2')).toMatchObject({ blocked_by: 'CI', revision: 2 });
      });
  });

  it('allows a needs_input item for inspection', () => {
    given([...agent, created('w-2', { plan_status: 'needs_input' })])
      .when(cmd.pick('w-2'))
      .then([pickedEvent({ current_readiness: 'waiting_for_operator', current_focus_mode: 'inspection' })]);
  });

  it('refuses a completed item', () => {
    given([...twoOpen, completed('w-2', 2)])
      .when(cmd.pick('w-2'))
      .thenThrows('invariant_violated', { rule: 'work_item_completed', work_item_id: 'w-2' });
  });

  it('refuses an unknown item', () => {
    given(twoOpen).when(cmd.pick('w-404')).thenThrows('not_found', { resource: 'work_item', work_item_id: 'w-404' });
  });

  it('refuses a malformed id', () => {
    given(twoOpen).when(cmd.pick('../w-1')).thenThrows('validation_failed', { field: 'work_item_id' });
  });
});

describe('evolving WorkItemFocusReleased', () => {
  const release = (id: string): AgentEvent => ({
    type: 'WorkItemFocusReleased',
    data: { agent_id: AGENT, work_item_id: id, reason: 'work_item_blocked', at: NOW },
  });

  it('clears the focus when it names the focused item', () => {
    given([...twoOpen, picked('w-1'), release('w-1')])
      .when(cmd.pick('w-2'))
      .thenState((_after, events) => {
        expect(events[0].data).toMatchObject({ previous_work_item_id: null });
      });
  });

  it('leaves another focus alone', () => {
    given([...twoOpen, picked('w-1'), release('w-2')])
      .when(cmd.pick('w-2', 'why'))
      .thenState((_after, events) => {
        expect(events[0].data).toMatchObject({ previous_work_item_id: 'w-1' });
      });
  });
});
