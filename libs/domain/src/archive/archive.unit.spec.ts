import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { schedulingIndexOf } from '../agent/scheduling-index.upkeep';
import { given } from '../testing/decider-spec';
import { AGENT, at, cmd, completed, created, meta, NOW, picked, registered } from '../testing/fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';

const archive = (completed_before: unknown, now = NOW): AgentCommand =>
  ({ type: 'ArchiveWorkItems', data: { completed_before }, meta: meta(now) }) as AgentCommand;

const NO_COUNTS = {
  messages: 0,
  turns: 0,
  rounds: 0,
  briefs: 0,
  delivery_summaries: 0,
  emitted_tick_keys: 0,
  tasks: 0,
  timers: 0,
  waiting_intents: 0,
};

// w-1 completed at minute 3, w-2 completed at minute 10, w-3 open.
const life: AgentEvent[] = [
  registered(),
  created('w-1'),
  created('w-2'),
  created('w-3'),
  completed('w-1', 2, at(3)),
  completed('w-2', 2, at(10)),
];

describe('ArchiveWorkItems', () => {
  it('records one WorkItemsArchived naming the completed items older than the cut-off', () => {
    given(life)
      .when(archive(at(5)))
      .then([
        {
          type: 'WorkItemsArchived',
          data: {
            agent_id: AGENT,
            completed_before: at(5),
            work_item_ids: ['w-1'],
            counts: NO_COUNTS,
            at: NOW,
          },
        },
      ]);
  });

  it('takes the archived items out of the live state; the others stay as they were', () => {
    given(life)
      .when(archive(at(5)))
      .thenState((after) => {
        expect(after.work_items.keys()).toEqual(['w-2', 'w-3']);
        expect(after.work_items.get('w-2')).toEqual(replay(life).work_items.get('w-2'));
        expect(after.scheduling_index).toEqual(schedulingIndexOf(after));
        expect(after.version).toBe(life.length + 1);
      });
  });

  it('records nothing when nothing is older than the cut-off (a repeat, or the policy run again)', () => {
    given(life)
      .when(archive(at(3)))
      .thenNothing();
    const once = [...life, archivedW1(at(5))];
    given(once)
      .when(archive(at(5)))
      .thenNothing();
  });

  it('never archives an open item, the focus, or an item a live record still names', () => {
    const focused = [registered(), created('w-1'), picked('w-1'), completed('w-1', 2, at(3))];
    // A task still running on the item keeps it live; so does the focus while it names the item.
    const withTask = history([registered(), created('w-1')], wcmd.createTask('t-1', { work_item_id: 'w-1' }));
    given([...withTask, completed('w-1', 2, at(3))])
      .when(archive(at(50)))
      .thenNothing();
    given(focused)
      .when(archive(at(50)))
      .thenState((after) => expect(after.work_items.keys()).toEqual(['w-1']));
    given([registered(), created('w-1'), completed('w-1', 2, at(3))])
      .when(archive(at(2)))
      .thenNothing();
  });

  it('takes finished tasks, ended intents and processed records older than the cut-off too', () => {
    const events = history(
      [registered(), created('w-1')],
      wcmd.createTask('t-1', { work_item_id: 'w-1' }),
      wcmd.taskStatus('t-1', 'completed', { message_id: 'm-r1' }),
      wcmd.drop('m-r1'),
      cmd.complete('w-1'),
    );
    given(events)
      .when(archive(at(61), at(70)))
      .thenState((after, [event]) => {
        expect(event.data).toMatchObject({ work_item_ids: ['w-1'], counts: { tasks: 1, messages: 1 } });
        expect(after.tasks.size).toBe(0);
        expect(after.messages.size).toBe(0);
        expect(after.work_items.size).toBe(0);
      });
  });

  it('keeps a queued message and the finished task it names', () => {
    const events = history(
      [registered()],
      wcmd.createTask('t-1'),
      wcmd.taskStatus('t-1', 'completed', { message_id: 'm-r1' }),
    );
    given(events)
      .when(archive(at(61), at(70)))
      .thenNothing();
  });

  it('refuses a cut-off that is not an RFC 3339 instant, and an unregistered agent', () => {
    given(life).when(archive('yesterday')).thenThrows('validation_failed', { field: 'completed_before' });
    given(life).when(archive(undefined)).thenThrows('validation_failed', { field: 'completed_before' });
    given([])
      .when(archive(at(5)))
      .thenThrows('not_found', { resource: 'agent' });
  });

  it('lets a later CreateWorkItem reuse nothing by itself: the read model reserves archived ids', () => {
    // The live state no longer holds w-1; the application checks the read model (docs/decisions/0034).
    given([...life, archivedW1(at(5))])
      .when(cmd.create('w-1'))
      .thenState((after) => expect(after.work_items.get('w-1')?.state).toBe('open'));
  });
});

/** The WorkItemsArchived that archiving w-1 of `life` records. */
function archivedW1(cutOff: string): AgentEvent {
  return {
    type: 'WorkItemsArchived',
    data: { agent_id: AGENT, completed_before: cutOff, work_item_ids: ['w-1'], counts: NO_COUNTS, at: NOW },
  };
}
