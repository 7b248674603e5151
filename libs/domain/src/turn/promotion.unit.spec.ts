import { replay } from '../agent/agent.evolve';
import { given } from '../testing/decider-spec';
import { AGENT, created, NOW, picked, registered, todo } from '../testing/fixtures';
import { call, tcmd } from '../testing/turn-fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { workItemView } from '../views/work-item.view';
import {
  MISSING_COMPLETION_REPORT,
  NOT_PROMOTED_MULTIPLE_COMPLETIONS,
  NOT_PROMOTED_UNFOCUSED_COMPLETION,
} from './promotion';

const REPORT = 'Shipped the fix; CI is green.';
const agent = [
  registered(),
  created('w-1', { todo_list: [todo('write tests'), todo('fix', 'completed')] }),
  created('w-2'),
  picked('w-1'),
];
const turn = history(agent, wcmd.enqueue('m-1'), tcmd.startTurn('t-1', 'm-1'));
const inRound = (text: string | undefined, ...completions: string[]) =>
  history(
    turn,
    tcmd.round('t-1', 'r-1', text, [call('c-1', 'CompleteWorkItem')]),
    ...completions.map((id) => tcmd.completeIn(id, 'r-1')),
  );
const completedWithReport = inRound(REPORT, 'w-1');

describe('a round with one completion of the focused item and report text', () => {
  it('is promoted when the round closes: report, delivery summary (warnings kept) and result brief', () => {
    given(completedWithReport)
      .when(tcmd.closeRound('t-1', 'r-1'))
      .then([
        {
          type: 'RoundClosed',
          data: {
            agent_id: AGENT,
            turn_id: 't-1',
            round_id: 'r-1',
            cause: 'explicit',
            warnings: [],
            at: NOW,
            promotion: { work_item_id: 'w-1', delivery_summary_id: 'ds_r-1', brief_id: 'brief_round_r-1' },
          },
        },
        {
          type: 'WorkItemReportPromoted',
          data: {
            agent_id: AGENT,
            work_item_id: 'w-1',
            turn_id: 't-1',
            round_id: 'r-1',
            result_summary: REPORT,
            delivery_summary_id: 'ds_r-1',
            brief_id: 'brief_round_r-1',
            revision: 3,
            at: NOW,
          },
        },
        {
          type: 'DeliverySummaryRecorded',
          data: {
            agent_id: AGENT,
            delivery_summary_id: 'ds_r-1',
            work_item_id: 'w-1',
            text: REPORT,
            turn_id: 't-1',
            round_id: 'r-1',
            at: NOW,
            evidence: {
              source: 'report_promotion',
              tool_call_ids: ['c-1'],
              warnings: [
                {
                  kind: 'unfinished_todos',
                  message: 'Work item completed with unfinished todo items.',
                  pending_count: 1,
                  in_progress_count: 0,
                  sample: [{ text: 'write tests', state: 'pending' }],
                },
              ],
            },
          },
        },
        {
          type: 'BriefRecorded',
          data: {
            agent_id: AGENT,
            brief_id: 'brief_round_r-1',
            kind: 'result',
            text: REPORT,
            work_item_id: 'w-1',
            turn_id: 't-1',
            round_id: 'r-1',
            at: NOW,
          },
        },
      ]);
  });

  it("becomes the completed item's canonical report", () => {
    const state = replay(history(completedWithReport, tcmd.closeRound('t-1', 'r-1')));
    expect(workItemView(state, 'w-1')).toMatchObject({
      state: 'completed',
      result_summary: REPORT,
      revision: 3,
      completion_report: { text: REPORT, source: 'result_summary' },
    });
    expect(state.rounds.get('r-1')!.completions).toEqual([
      expect.objectContaining({ work_item_id: 'w-1', focused: true, pending_todo_count: 1 }),
    ]);
  });

  it("suppresses the turn's own final result brief: the completion is delivered once", () => {
    const closed = history(completedWithReport, tcmd.closeRound('t-1', 'r-1'));
    given(closed)
      .when(tcmd.terminal('t-1', 'completed', REPORT))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TurnTerminal', 'MessageProcessed']);
        expect(after.briefs.values().map((b) => b.id)).toEqual(['brief_round_r-1']);
      });
  });

  it('is promoted by the turn terminal that closes the round, with the final brief suppressed in the same append', () => {
    given(completedWithReport)
      .when(tcmd.terminal('t-1', 'completed', REPORT))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual([
          'RoundClosed',
          'WorkItemReportPromoted',
          'DeliverySummaryRecorded',
          'BriefRecorded',
          'TurnTerminal',
          'MessageProcessed',
        ]);
        expect(after.work_items.get('w-1')!.result_summary).toBe(REPORT);
      });
  });

  it('is promoted when the next round closes it', () => {
    given(completedWithReport)
      .when(tcmd.round('t-1', 'r-2', 'next'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual([
          'RoundClosed',
          'WorkItemReportPromoted',
          'DeliverySummaryRecorded',
          'BriefRecorded',
          'AssistantRoundRecorded',
        ]);
        expect(after.rounds.get('r-1')!.promotion).toEqual({
          work_item_id: 'w-1',
          delivery_summary_id: 'ds_r-1',
          brief_id: 'brief_round_r-1',
        });
      });
  });
});

describe('a round whose completion cannot be promoted', () => {
  it('without report text: no report, warning missing_completion_report, and the final brief is not suppressed', () => {
    given(inRound(undefined, 'w-1'))
      .when(tcmd.closeRound('t-1', 'r-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['RoundClosed']);
        expect(events[0].data).toMatchObject({
          promotion: null,
          warnings: [{ kind: MISSING_COMPLETION_REPORT, work_item_id: 'w-1', round_id: 'r-1' }],
        });
        expect(after.work_items.get('w-1')!.result_summary).toBeNull();
      });
    const closed = history(inRound('  ', 'w-1'), tcmd.closeRound('t-1', 'r-1'));
    given(closed)
      .when(tcmd.terminal('t-1', 'completed', 'Done.'))
      .thenState((after) => {
        expect(after.briefs.get('brief_turn_t-1')).toMatchObject({ kind: 'result', text: 'Done.' });
      });
  });

  it('with more than one completion: no report, a warning on each', () => {
    given(inRound(REPORT, 'w-1', 'w-2'))
      .when(tcmd.closeRound('t-1', 'r-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['RoundClosed']);
        expect(events[0].data).toMatchObject({
          promotion: null,
          warnings: [
            { kind: NOT_PROMOTED_MULTIPLE_COMPLETIONS, work_item_id: 'w-1', completion_count: 2 },
            { kind: NOT_PROMOTED_MULTIPLE_COMPLETIONS, work_item_id: 'w-2', completion_count: 2 },
          ],
        });
        expect([after.work_items.get('w-1')!.result_summary, after.work_items.get('w-2')!.result_summary]).toEqual([
          null,
          null,
        ]);
      });
  });

  it('for an item that was not the focus: no report, a warning', () => {
    given(inRound(REPORT, 'w-2'))
      .when(tcmd.closeRound('t-1', 'r-1'))
      .thenState((_after, events) => {
        expect(events[0].data).toMatchObject({
          promotion: null,
          warnings: [{ kind: NOT_PROMOTED_UNFOCUSED_COMPLETION, work_item_id: 'w-2' }],
        });
      });
  });

  it('with no completion at all: round text is never promoted', () => {
    given(history(turn, tcmd.round('t-1', 'r-1', REPORT)))
      .when(tcmd.closeRound('t-1', 'r-1'))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ promotion: null, warnings: [] });
        expect(after.delivery_summaries).toEqual({});
      });
  });

  it('a completion naming a closed or unknown round is not tracked', () => {
    const closed = history(
      turn,
      tcmd.round('t-1', 'r-1', REPORT),
      tcmd.closeRound('t-1', 'r-1'),
      tcmd.completeIn('w-1', 'r-1'),
      tcmd.completeIn('w-2', 'r-x'),
    );
    const state = replay(closed);
    expect(state.rounds.get('r-1')!.completions).toEqual([]);
    expect(state.rounds.get('r-x')).toBeUndefined();
  });
});
