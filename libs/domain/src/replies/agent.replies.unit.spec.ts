import type { AgentCommand } from '../agent/agent.commands';
import { decide } from '../agent/agent.decide';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import type { AgentState } from '../agent/agent.state';
import { cmd, created, picked, registered, todo, updated } from '../testing/fixtures';
import {
  renderCompleteWorkItemReply,
  renderCreateWorkItemReply,
  renderPickWorkItemReply,
  renderRegisterAgentReply,
  renderUpdateWorkItemReply,
} from './agent.replies';

/** Runs a command the way the app does: decide, fold, render. */
function run<R>(
  history: AgentEvent[],
  command: AgentCommand,
  render: (c: never, b: AgentState, a: AgentState, e: AgentEvent[]) => R,
): R {
  const before = replay(history);
  const events = decide(command, before);
  return render(command as never, before, replay(events, before), events);
}

describe('RegisterAgent reply', () => {
  it('summarises the new agent', () => {
    expect(run([], cmd.register(), renderRegisterAgentReply).agent).toMatchObject({
      agent_id: 'agent-1',
      posture: 'awake_idle',
      current_work_item_id: null,
      work_item_counts: { all: 0, open: 0 },
    });
  });
});

describe('CreateWorkItem reply', () => {
  it('returns the new item view and no warnings', () => {
    const reply = run([registered()], cmd.create('w-1'), renderCreateWorkItemReply);
    expect(reply).toEqual({
      work_item: expect.objectContaining({ id: 'w-1', revision: 1, is_current: false }),
      warnings: [],
    });
    expect(reply).not.toHaveProperty('revision');
  });
});

describe('UpdateWorkItem reply', () => {
  const focused = [registered(), created('w-1'), picked('w-1')];

  it('says whether the focus was released', () => {
    const blocked = run(focused, cmd.update('w-1', { blocked_by: 'CI' }), renderUpdateWorkItemReply);
    expect(blocked).toMatchObject({
      focus_released: true,
      warnings: [],
      work_item: { blocked_by: 'CI', is_current: false, revision: 2 },
    });
    expect(run(focused, cmd.update('w-1', { objective: 'x' }), renderUpdateWorkItemReply).focus_released).toBe(false);
  });

  it('returns the current view for a no-op update', () => {
    expect(run(focused, cmd.update('w-1'), renderUpdateWorkItemReply)).toMatchObject({
      focus_released: false,
      work_item: { revision: 1 },
    });
  });
});

describe('PickWorkItem reply', () => {
  const history = [registered(), created('w-1'), created('w-2'), picked('w-1')];

  it('returns current, previous, a binding note and the missing-reason warning', () => {
    const reply = run(history, cmd.pick('w-2'), renderPickWorkItemReply);
    expect(reply.current).toMatchObject({ id: 'w-2', is_current: true });
    expect(reply.previous).toMatchObject({ id: 'w-1', is_current: false });
    expect(reply.binding_note).toContain('w-2');
    expect(reply.warnings).toEqual([
      expect.objectContaining({ kind: 'missing_pick_reason_for_runnable_focus_switch', message: expect.any(String) }),
    ]);
  });

  it('has no previous and no warning on a first pick', () => {
    const reply = run(history.slice(0, 3), cmd.pick('w-2'), renderPickWorkItemReply);
    expect(reply).toMatchObject({ previous: null, warnings: [] });
  });

  it('notes an inspection pick', () => {
    const reply = run(
      [...history, updated('w-2', { blocked_by: 'CI', revision: 2 })],
      cmd.pick('w-2', 'look'),
      renderPickWorkItemReply,
    );
    expect(reply.binding_note).toMatch(/inspection/);
    expect(reply.current).toMatchObject({ readiness: 'blocked', is_current: true });
  });
});

describe('CompleteWorkItem reply', () => {
  const list = [
    todo('a', 'completed'),
    todo('b'),
    todo('c', 'in_progress'),
    todo('d'),
    todo('e'),
    todo('f'),
    todo('g', 'in_progress'),
  ];

  it('warns about unfinished todos with counts and the first five in list order', () => {
    const reply = run(
      [registered(), created('w-1', { todo_list: list })],
      cmd.complete('w-1'),
      renderCompleteWorkItemReply,
    );
    expect(reply.completed_transition).toBe(true);
    expect(reply.work_item).toMatchObject({ state: 'completed', readiness: 'completed', revision: 2 });
    expect(reply.warnings).toEqual([
      {
        kind: 'unfinished_todos',
        message: 'Work item completed with unfinished todo items.',
        pending_count: 4,
        in_progress_count: 2,
        sample: [todo('b'), todo('c', 'in_progress'), todo('d'), todo('e'), todo('f')],
      },
    ]);
  });

  it('has no warning when every todo is done', () => {
    const reply = run(
      [registered(), created('w-1', { todo_list: [todo('a', 'completed')] })],
      cmd.complete('w-1'),
      renderCompleteWorkItemReply,
    );
    expect(reply.warnings).toEqual([]);
  });

  it('reports completed_transition false when completing again', () => {
    const history = [registered(), created('w-1', { todo_list: list })];
    const first = replay(decide(cmd.complete('w-1'), replay(history)), replay(history));
    const events = decide(cmd.complete('w-1'), first);
    const reply = renderCompleteWorkItemReply(cmd.complete('w-1') as never, first, replay(events, first), events);
    expect(events).toEqual([]);
    expect(reply).toMatchObject({
      completed_transition: false,
      warnings: [],
      work_item: { state: 'completed', revision: 2 },
    });
  });
});
