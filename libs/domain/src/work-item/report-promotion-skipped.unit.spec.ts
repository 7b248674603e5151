import { given } from '../testing/decider-spec';
import { cmd, created, picked, registered } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';

// docs/domain-contract.md §4: a completion inside a model turn that names no open round cannot have
// its report promoted; the completion event and the reply say so instead of losing it silently.
const focused = [registered(), created('w-1'), picked('w-1')];
const inTurn = history(focused, wcmd.enqueue('m-1'), tcmd.startTurn('t-1', 'm-1'));
const withRound = history(inTurn, tcmd.round('t-1', 'r-1', 'report'));
const closedRound = history(withRound, tcmd.closeRound('t-1', 'r-1'));

describe('CompleteWorkItem in a turn without an open round', () => {
  it.each([
    ['without round_id', inTurn, cmd.complete('w-1'), null],
    ['naming a closed round', closedRound, tcmd.completeIn('w-1', 'r-1'), 'r-1'],
    ['naming an unknown round', inTurn, tcmd.completeIn('w-1', 'r-9'), 'r-9'],
  ] as const)('%s: the completion says report_promotion skipped_no_round', (_n, events, command, round) => {
    given([...events])
      .when(command)
      .thenState((after, newEvents) => {
        expect(newEvents[0]).toMatchObject({
          type: 'WorkItemCompleted',
          data: { work_item_id: 'w-1', round_id: round, report_promotion: 'skipped_no_round' },
        });
        expect(after.work_items.get('w-1')).toMatchObject({ state: 'completed', result_summary: null });
      });
  });

  it('naming the open round: no skip (the round promotes it when it closes)', () => {
    given(withRound)
      .when(tcmd.completeIn('w-1', 'r-1'))
      .thenState((_after, newEvents) => expect(newEvents[0].data).not.toHaveProperty('report_promotion'));
  });

  it('outside a turn without round_id (an operator completing): no skip, no warning', () => {
    given(focused)
      .when(cmd.complete('w-1'))
      .thenState((_after, newEvents) => expect(newEvents[0].data).not.toHaveProperty('report_promotion'));
  });

  it('outside a turn naming a round that is no longer open: skipped', () => {
    const ended = history(withRound, tcmd.terminal('t-1', 'completed'));
    given(ended)
      .when(tcmd.completeIn('w-1', 'r-1'))
      .thenState((_after, newEvents) =>
        expect(newEvents[0].data).toMatchObject({ report_promotion: 'skipped_no_round' }),
      );
  });
});
