import type { AgentState, DeliverySummaryRecord } from '../agent/agent.state';
import {
  AGENT,
  artifact,
  at,
  completed,
  created,
  intent,
  picked,
  registered,
  stateOf,
  T0,
  todo,
  updated,
} from '../testing/fixtures';
import { workItemView } from './work-item.view';
import { RecordMap } from '../shared/record-map';

const summary = (id: string, text: string, time: string, workItemId = 'w-1'): DeliverySummaryRecord => ({
  id,
  work_item_id: workItemId,
  text,
  created_at: time,
  turn_id: null,
  round_id: null,
  evidence: { source: 'report_promotion', warnings: [], tool_call_ids: [] },
});
const withSummaries = (state: AgentState, summaries: DeliverySummaryRecord[]): AgentState => ({
  ...state,
  delivery_summaries: RecordMap.from(summaries.map((s) => [s.id, s] as const)),
});

describe('the work item view', () => {
  it('renders every field of docs/api.md for a focused runnable item', () => {
    const state = stateOf([
      registered(),
      created('w-1', { todo_list: [todo('a', 'completed'), todo('b', 'in_progress')] }),
      picked('w-1'),
    ]);
    expect(workItemView(state, 'w-1')).toEqual({
      id: 'w-1',
      agent_id: AGENT,
      objective: 'objective of w-1',
      state: 'open',
      plan_status: 'draft',
      blocked_by: null,
      recheck_at: null,
      revision: 1,
      todo_list: [todo('a', 'completed'), todo('b', 'in_progress')],
      current_todo: todo('b', 'in_progress'),
      plan_artifact: artifact('w-1'),
      readiness: 'runnable',
      scheduling_state: 'runnable',
      candidate_class: 'current_runnable',
      is_current: true,
      has_active_waits: false,
      has_triggered_waits: false,
      waiting_intents: [],
      result_summary: null,
      completion_report: null,
      created_at: T0,
      updated_at: T0,
      completed_at: null,
    });
  });

  it('returns null for an unknown item', () => {
    expect(workItemView(stateOf([registered()]), 'w-404')).toBeNull();
  });

  it("shows the item's active intents, flags triggered ones and never exposes the token hash", () => {
    const state = stateOf(
      [registered(), created('w-1'), updated('w-1', { blocked_by: 'review', revision: 2 })],
      [
        intent('i-2', 'w-1', { created_at: at(2), trigger_count: 1, last_triggered_at: at(3) }),
        intent('i-1', 'w-1', { created_at: at(1), wake: 'timer' }),
        intent('i-0', 'w-1', { status: 'cancelled' }),
        intent('i-x', null),
      ],
    );
    const view = workItemView(state, 'w-1')!;
    expect(view).toMatchObject({
      has_active_waits: true,
      has_triggered_waits: true,
      scheduling_state: 'waiting_timer',
      readiness: 'blocked',
      candidate_class: 'triggered_blocked',
      is_current: false,
    });
    expect(view.waiting_intents.map((i) => [i.id, i.triggered])).toEqual([
      ['i-1', false],
      ['i-2', true],
    ]);
    expect(view.waiting_intents[0]).not.toHaveProperty('callback_token_hash');
  });

  it('does not share arrays with the state', () => {
    const state = stateOf([registered(), created('w-1', { todo_list: [todo('a')] })]);
    workItemView(state, 'w-1')!.todo_list[0].text = 'changed';
    expect(state.work_items.get('w-1')!.todo_list[0].text).toBe('a');
  });
});

describe('completion_report', () => {
  const done = stateOf([registered(), created('w-1'), completed('w-1', 2)]);

  it('is null for an open item, even with a delivery summary', () => {
    const open = withSummaries(stateOf([registered(), created('w-1')]), [summary('d-1', 'text', at(1))]);
    expect(workItemView(open, 'w-1')!.completion_report).toBeNull();
  });

  it('is null for a completed item without report or summary', () => {
    expect(workItemView(done, 'w-1')!.completion_report).toBeNull();
  });

  it('prefers the promoted result_summary', () => {
    const promoted: AgentState = {
      ...withSummaries(done, [summary('d-1', 'older', at(1))]),
      work_items: RecordMap.from({ 'w-1': { ...done.work_items.get('w-1')!, result_summary: 'the report' } }),
    };
    expect(workItemView(promoted, 'w-1')!.completion_report).toEqual({ text: 'the report', source: 'result_summary' });
  });

  it('names the delivery summary the promotion recorded with the same text', () => {
    const promoted: AgentState = {
      ...withSummaries(done, [summary('d-1', 'older', at(1)), summary('ds_r-1', 'the report', at(2))]),
      work_items: RecordMap.from({ 'w-1': { ...done.work_items.get('w-1')!, result_summary: 'the report' } }),
    };
    expect(workItemView(promoted, 'w-1')!.completion_report).toEqual({
      text: 'the report',
      source: 'result_summary',
      delivery_summary_id: 'ds_r-1',
    });
  });

  it('else takes the newest non-empty delivery summary of that item', () => {
    const state = withSummaries(done, [
      summary('d-1', 'old', at(1)),
      summary('d-2', 'new', at(5)),
      summary('d-3', '  ', at(9)),
      summary('d-4', 'other', at(9), 'w-2'),
    ]);
    expect(workItemView(state, 'w-1')!.completion_report).toEqual({
      text: 'new',
      source: 'delivery_summary',
      delivery_summary_id: 'd-2',
    });
  });
});
