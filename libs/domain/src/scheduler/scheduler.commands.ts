import type { CommandMeta } from '../shared/command-meta';
import type { DecisionRecord, SchedulerDecision } from './decision';

/**
 * Records a decision computed at `at` (default meta.now). The aggregate recomputes it: a stale
 * decision is refused; one equal to the last recorded decision is recorded only if it has effects.
 * A tick (EmitSystemTick) is emitted with it, queued under `message_id` (required for a tick).
 */
export type RecordDecision = {
  type: 'RecordDecision';
  data: { decision: SchedulerDecision | DecisionRecord; at?: string; message_id?: string };
  meta: CommandMeta;
};

/**
 * Carries out an EmitSystemTick decision recorded without its tick (a stream written before RecordDecision emitted
 * it): the tick is queued under `message_id`; a key already emitted records nothing.
 */
export type EmitSystemTick = {
  type: 'EmitSystemTick';
  data: { decision: SchedulerDecision | DecisionRecord; message_id: string };
  meta: CommandMeta;
};

/** Carries out a ReduceMessageOnly decision at once: the message is dequeued and processed without a model turn. */
export type ReduceMessage = { type: 'ReduceMessage'; data: { message_id: string }; meta: CommandMeta };

export type SchedulerCommand = RecordDecision | EmitSystemTick | ReduceMessage;
