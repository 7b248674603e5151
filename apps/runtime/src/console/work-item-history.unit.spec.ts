import type { AgentEventItem } from '@app/application';
import { WorkItemHistoryFilter } from './work-item-history';

let revision = 0;
const event = (type: string, data: Record<string, unknown>): AgentEventItem => ({
  event_id: `e-${revision}`,
  revision: String(revision++),
  position: String(revision),
  type,
  data,
  metadata: {} as AgentEventItem['metadata'],
  recorded_at: '2026-01-01T00:00:00Z',
});

describe('the history of one work item in its agent stream', () => {
  const stream = [
    event('WorkItemCreated', { work_item_id: 'w-1' }),
    event('WorkItemCreated', { work_item_id: 'w-2' }),
    event('WorkItemPicked', { work_item_id: 'w-2', previous_work_item_id: 'w-1', current_work_item_id: 'w-2' }),
    event('SchedulerDecisionRecorded', { decision: { kind: 'EmitSystemTick', work_item_id: 'w-1' } }),
    event('WaitingIntentCreated', { intent_id: 'i-1', work_item_id: 'w-1' }),
    event('WaitingIntentCancelled', { intent_id: 'i-1' }),
    event('WaitingIntentCancelled', { intent_id: 'i-9' }),
    event('TurnStarted', { turn_id: 't-1', message_id: 'm-1', work_item_id: 'w-1' }),
    event('AssistantRoundRecorded', { turn_id: 't-1', round_id: 'r-1' }),
    event('WorkItemReportPromoted', { turn_id: 't-1', work_item_id: 'w-2' }),
    event('MessageProcessed', { message_id: 'm-1' }),
    event('AgentPaused', {}),
  ];

  it('keeps the events that name the item, its decisions, and those of the records it owns', () => {
    const filter = new WorkItemHistoryFilter('w-1');
    expect(stream.filter((e) => filter.accepts(e)).map((e) => e.type)).toEqual([
      'WorkItemCreated',
      'WorkItemPicked',
      'SchedulerDecisionRecorded',
      'WaitingIntentCreated',
      'WaitingIntentCancelled',
      'TurnStarted',
      'AssistantRoundRecorded',
      'MessageProcessed',
    ]);
  });

  it("leaves out what a shared record did for another item (a report promoted in this item's turn)", () => {
    const filter = new WorkItemHistoryFilter('w-2');
    expect(stream.filter((e) => filter.accepts(e)).map((e) => e.type)).toEqual([
      'WorkItemCreated',
      'WorkItemPicked',
      'WorkItemReportPromoted',
    ]);
  });
});
