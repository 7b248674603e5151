import type { AgentCommand } from '../agent/agent.commands';

import { replay } from '../agent/agent.evolve';
import { classifyMessage } from '../scheduler/message-classification';
import { given } from '../testing/decider-spec';
import { AGENT, cmd, created, meta, NOW, picked, registered } from '../testing/fixtures';
import { schedulerStep, tcmd } from '../testing/turn-fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import type { AcceptSpawn, DelegateWorkItem } from './delegation.commands';
import { delegationLabel } from './delegation.state';

// docs/domain-contract.md §11: SpawnAgent's two halves, the child's binding and outcome, the parent's completion.

const CHILD = 'child-1';
const PARENT = 'parent-1';

const delegate = (data: Partial<DelegateWorkItem['data']> = {}): AgentCommand => ({
  type: 'DelegateWorkItem',
  data: {
    delegation_id: 'dlg-1',
    child_agent_id: CHILD,
    initial_message: 'Summarise  the\nlogs',
    message_id: 'm-d',
    ...data,
  },
  meta: meta(),
});

/** The child's half, deciding on AGENT's stream (the spec's child). */
const accept = (data: Partial<AcceptSpawn['data']> = {}): AgentCommand => ({
  type: 'AcceptSpawn',
  data: {
    agent_id: AGENT,
    parent_agent_id: PARENT,
    workspace_mode: 'private_child',
    preset: 'coder',
    delegation: { delegation_id: 'dlg-1', parent_work_item_id: 'w-parent', label: 'Summarise the logs' },
    message: { message_id: 'm-d', body: 'Summarise the logs' },
    ...data,
  },
  meta: meta(),
});
const report = (now?: string): AgentCommand => ({
  type: 'ReportDelegation',
  data: { delegation_id: 'dlg-1' },
  meta: meta(now),
});
const complete = (data: Partial<Extract<AgentCommand, { type: 'CompleteDelegation' }>['data']> = {}): AgentCommand => ({
  type: 'CompleteDelegation',
  data: {
    delegation_id: 'dlg-1',
    state: 'completed',
    result_summary: 'The logs say hello.',
    reason: null,
    child_work_item_id: 'w-child',
    message_id: 'm-result',
    ...data,
  },
  meta: meta(),
});

const parent = [registered(), created('w-parent'), created('w-other'), picked('w-parent')];
const delegated = history(parent, delegate());
const spawned = history([], accept());
/** The child served the delegation message and created its item in that turn. */
const working = history(
  spawned,
  tcmd.startTurn('t-1', 'm-d'),
  cmd.create('w-child'),
  tcmd.round('t-1', 'r-1', 'The logs say hello.'),
);

describe('the label of a child task', () => {
  it('is a normalized prefix of the message: whitespace collapsed, cut on a word with an ellipsis', () => {
    expect(delegationLabel('  Summarise\n\tthe   logs ')).toBe('Summarise the logs');
    const long = `${'word '.repeat(40)}end`;
    const label = delegationLabel(long);
    expect([...label].length).toBeLessThanOrEqual(80);
    expect(label.endsWith('word…')).toBe(true);
    expect(delegationLabel(long)).toBe(label);
  });
});

describe('DelegateWorkItem (the parent)', () => {
  it('records the delegation on the focus and a background child_agent task labelled from the message', () => {
    given(parent)
      .when(delegate())
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['WorkItemDelegated', 'TaskCreated']);
        expect(events[1].data).toMatchObject({ task_id: 'dlg-1', kind: 'child_agent', wait_policy: 'background' });
        expect(after.tasks.get('dlg-1')).toMatchObject({ work_item_id: 'w-parent', summary: 'Summarise the logs' });
        expect(after.delegations.get('dlg-1')).toMatchObject({
          role: 'parent',
          parent_work_item_id: 'w-parent',
          child_agent_id: CHILD,
          state: 'delegated',
          child_work_item_id: null,
        });
        expect(after.work_items.get('w-parent')?.blocked_by).toBeNull();
      });
  });

  it('delegates the item it names instead of the focus', () => {
    given(parent)
      .when(delegate({ work_item_id: 'w-other' }))
      .thenState((after) => expect(after.delegations.get('dlg-1')?.parent_work_item_id).toBe('w-other'));
  });

  it('refuses without a focus and without work_item_id: work_item_required', () => {
    given([registered(), created('w-parent')])
      .when(delegate())
      .thenThrows('work_item_required', { field: 'work_item_id' });
  });

  it('refuses a completed item, a stopped parent, itself as the child, and a reused delegation id', () => {
    const done = history(parent, cmd.complete('w-other'));
    given(done)
      .when(delegate({ work_item_id: 'w-other' }))
      .thenThrows('invariant_violated');
    given(history(parent, wcmd.control('stop')))
      .when(delegate())
      .thenThrows('agent_stopped');
    given(parent)
      .when(delegate({ child_agent_id: AGENT }))
      .thenThrows('validation_failed', { field: 'agent_id' });
    given(delegated).when(delegate()).thenThrows('already_exists', { resource: 'delegation' });
  });
});

describe('AcceptSpawn (the child)', () => {
  it('registers a private child with its spawn facts, the delegation and its first message, and no work item', () => {
    given([])
      .when(accept())
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual([
          'AgentRegistered',
          'AgentSpawned',
          'WorkItemDelegationReceived',
          'MessageQueued',
        ]);
        expect(after.spawned).toMatchObject({ parent_agent_id: PARENT, preset: 'coder', delegation_id: 'dlg-1' });
        expect(after.messages.get('m-d')).toMatchObject({ kind: 'internal_followup', origin: 'delegation' });
        expect(after.work_items.size).toBe(0);
        expect(after.current_work_item_id).toBeNull();
      });
  });

  it('requires the message for a private child; a public child has no delegation and an optional message', () => {
    given([])
      .when(accept({ message: undefined }))
      .thenThrows('validation_failed', { field: 'initial_message' });
    given([])
      .when(accept({ workspace_mode: 'public_named', delegation: undefined, message: undefined, template: 'tpl' }))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['AgentRegistered', 'AgentSpawned']);
        expect(after.spawned).toMatchObject({ workspace_mode: 'public_named', template: 'tpl', delegation_id: null });
        expect(after.delegations.size).toBe(0);
      });
  });

  it('records nothing again for the same delegation, and refuses any other existing agent', () => {
    given(spawned).when(accept()).thenNothing();
    given([registered()]).when(accept()).thenThrows('already_exists', { resource: 'agent' });
  });
});

describe('the child work item of a delegation', () => {
  it('is the first item the child creates while serving the delegation message', () => {
    const state = replay(history(working, cmd.create('w-second')));
    expect(state.delegations.get('dlg-1')).toMatchObject({ child_work_item_id: 'w-child', state: 'working' });
  });

  it('is not an item created outside that turn', () => {
    const before = replay(history(spawned, cmd.create('w-early')));
    expect(before.delegations.get('dlg-1')).toMatchObject({ child_work_item_id: null, state: 'delegated' });
  });
});

describe('ReportDelegation (the child)', () => {
  const completedWithReport = history(
    working,
    cmd.pick('w-child'),
    tcmd.completeIn('w-child', 'r-1'),
    tcmd.closeRound('t-1', 'r-1'),
  );

  it('reports completed with the child item report as result_summary, once', () => {
    given(completedWithReport)
      .when(report())
      .thenState((after, events) => {
        expect(events).toEqual([
          {
            type: 'WorkItemDelegationReported',
            data: {
              agent_id: AGENT,
              delegation_id: 'dlg-1',
              parent_agent_id: PARENT,
              child_work_item_id: 'w-child',
              state: 'completed',
              result_summary: 'The logs say hello.',
              reason: null,
              at: NOW,
            },
          },
        ]);
        expect(after.delegations.get('dlg-1')?.state).toBe('completed');
      });
    given(history(completedWithReport, report())).when(report()).thenNothing();
  });

  it('waits for the report while the completing round is still open', () => {
    given(history(working, cmd.pick('w-child'), tcmd.completeIn('w-child', 'r-1')))
      .when(report())
      .thenNothing();
  });

  it('reports nothing while the child is still working', () => {
    given(working).when(report()).thenNothing();
  });

  it('reports cancelled (child_stopped) when the child is stopped before completing', () => {
    given(history(working, wcmd.control('stop')))
      .when(report())
      .thenState((_after, events) =>
        expect(events[0].data).toMatchObject({ state: 'cancelled', reason: 'child_stopped', result_summary: null }),
      );
  });

  it('reports failed when its turn on the delegated item failed and nothing is left to run', () => {
    const firstFailure = history(working, cmd.pick('w-child'), tcmd.terminal('t-1', 'failed', 'tool crashed'));
    given(firstFailure).when(report()).thenNothing();
    const retried = history(schedulerStep(firstFailure), tcmd.startTurn('t-2', 'm-tick'));
    const failedAgain = history(retried, tcmd.terminal('t-2', 'failed', 'tool crashed again'));
    given(failedAgain)
      .when(report())
      .thenState((_after, events) =>
        expect(events[0].data).toMatchObject({ state: 'failed', reason: 'child_turn_failed' }),
      );
    const followup = {
      type: 'EnqueueMessage',
      data: { message_id: 'm-2', kind: 'internal_followup', authority: 'runtime_instruction', body: 'again' },
      meta: meta(),
    } as AgentCommand;
    given(history(failedAgain, followup)).when(report()).thenNothing();
  });
});

describe('CompleteDelegation (the parent)', () => {
  it('ends the delegation and the child task, and queues the result on the record item, not the focus', () => {
    const moved = history(delegated, cmd.pick('w-other'));
    given(moved)
      .when(complete())
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['WorkItemDelegationCompleted', 'TaskCompleted', 'MessageQueued']);
        expect(after.delegations.get('dlg-1')).toMatchObject({
          state: 'completed',
          result_summary: 'The logs say hello.',
          child_work_item_id: 'w-child',
        });
        const message = after.messages.get('m-result')!;
        expect(message).toMatchObject({ kind: 'task_result', work_item_id: 'w-parent', task_id: 'dlg-1' });
        expect(classifyMessage(after, message)).toMatchObject({
          model_reentry: true,
          reason: 'task_result_for_delegation',
        });
      });
  });

  it('turns the task failed or cancelled with the reason as detail', () => {
    given(delegated)
      .when(complete({ state: 'cancelled', result_summary: null, reason: 'child_stopped' }))
      .thenState((after) =>
        expect(after.tasks.get('dlg-1')).toMatchObject({
          status: 'cancelled',
          detail: 'delegation cancelled: child_stopped',
        }),
      );
    given(delegated)
      .when(complete({ state: 'failed', result_summary: null, reason: 'child_turn_failed' }))
      .thenState((after) => expect(after.tasks.get('dlg-1')?.status).toBe('failed'));
  });

  it('records nothing for a delegation already ended, and no second result for a task the parent cancelled', () => {
    given(history(delegated, complete())).when(complete()).thenNothing();
    const cancelledTask = history(delegated, {
      type: 'UpdateTaskStatus',
      data: { task_id: 'dlg-1', status: 'cancelled', message_id: 'm-cancel' },
      meta: meta(),
    } as AgentCommand);
    given(cancelledTask)
      .when(complete({ state: 'cancelled', result_summary: null, reason: 'child_stopped' }))
      .thenState((_after, events) => expect(typesOf(events)).toEqual(['WorkItemDelegationCompleted']));
  });

  it('is refused on the child side of a delegation', () => {
    given(spawned).when(complete()).thenThrows('invariant_violated', { rule: 'not_the_parent' });
  });
});
