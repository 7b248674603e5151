import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import type { Posture } from '../agent/agent.state';
import { given, givenState } from '../testing/decider-spec';
import { AGENT, NOW, registered } from '../testing/fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import type { ControlAction } from './control.commands';

const agent = [registered()];
const stopped = history(agent, wcmd.control('stop'));
const paused = history(agent, wcmd.control('pause'));
const postureEvent = (type: string, previous: Posture, posture: Posture): AgentEvent =>
  ({ type, data: { agent_id: AGENT, previous_posture: previous, posture, at: NOW } }) as AgentEvent;

describe('Control', () => {
  it.each<[string, AgentEvent[], ControlAction, AgentEvent]>([
    ['stop an idle agent', agent, 'stop', postureEvent('AgentStopped', 'awake_idle', 'stopped')],
    ['pause an idle agent', agent, 'pause', postureEvent('AgentPaused', 'awake_idle', 'paused')],
    ['stop a paused agent', paused, 'stop', postureEvent('AgentStopped', 'paused', 'stopped')],
    ['resume a paused agent', paused, 'resume', postureEvent('AgentResumed', 'paused', 'awake_idle')],
    ['start a stopped agent', stopped, 'start', postureEvent('AgentStarted', 'stopped', 'awake_idle')],
    ['resume a stopped agent', stopped, 'resume', postureEvent('AgentResumed', 'stopped', 'awake_idle')],
    ['start a paused agent', paused, 'start', postureEvent('AgentStarted', 'paused', 'awake_idle')],
  ])('can %s', (_name, events, action, expected) => {
    given(events).when(wcmd.control(action)).then([expected]);
  });

  it.each<[string, AgentEvent[], ControlAction]>([
    ['stop a stopped agent', stopped, 'stop'],
    ['pause a paused agent', paused, 'pause'],
    ['pause a stopped agent (it stays behind the harder gate)', stopped, 'pause'],
    ['start an awake agent', agent, 'start'],
    ['resume an awake agent', agent, 'resume'],
  ])('records nothing when asked to %s', (_name, events, action) => {
    given(events).when(wcmd.control(action)).thenNothing();
  });

  it('applies the posture', () => {
    given(agent)
      .when(wcmd.control('stop'))
      .thenState((after) => expect(after.posture).toBe('stopped'));
  });

  it('never starts a turn: resuming with no open turn is idle, with one still open it is running', () => {
    given(history(paused, wcmd.enqueue('m-1')))
      .when(wcmd.control('resume'))
      .thenState((after) => {
        expect(after.posture).toBe('awake_idle');
        expect(after.open_turn_id).toBeNull();
        expect(after.queue).toEqual(['m-1']);
      });
    givenState({ ...replay(paused), open_turn_id: 'turn-1' })
      .when(wcmd.control('resume'))
      .thenState((after) => expect(after.posture).toBe('awake_running'));
  });

  it('refuses an unknown action and an unregistered agent', () => {
    given(agent)
      .when(wcmd.control('restart' as never))
      .thenThrows('validation_failed', { field: 'action' });
    given([]).when(wcmd.control('stop')).thenThrows('not_found', { resource: 'agent' });
  });
});

describe('a gated agent', () => {
  it('keeps messages queued while paused (they accumulate)', () => {
    given(paused)
      .when(wcmd.enqueue('m-1'))
      .thenState((after) => {
        expect(after.posture).toBe('paused');
        expect(after.messages.get('m-1')!.status).toBe('queued');
        expect(after.queue).toEqual(['m-1']);
      });
  });

  it('ignores wake hints while stopped but records task results', () => {
    const withTask = history(stopped, wcmd.createTask('t-1'));
    given(withTask)
      .when(wcmd.wakeHint())
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ disposition: 'ignored' });
        expect(after.queue).toEqual([]);
      });
    given(withTask)
      .when(wcmd.taskStatus('t-1', 'completed'))
      .thenState((after) => {
        expect(after.tasks.get('t-1')!.status).toBe('completed');
        expect(after.messages.get('m-t-1-completed')).toMatchObject({ kind: 'task_result', status: 'queued' });
      });
  });
});
