// Original file: libs/contracts/proto/agent_runtime.proto

import type { WorkItemWhyItem as _agent_runtime_v1_WorkItemWhyItem, WorkItemWhyItem__Output as _agent_runtime_v1_WorkItemWhyItem__Output } from '../../agent_runtime/v1/WorkItemWhyItem';
import type { Decision as _agent_runtime_v1_Decision, Decision__Output as _agent_runtime_v1_Decision__Output } from '../../agent_runtime/v1/Decision';
import type { WhyNotStanding as _agent_runtime_v1_WhyNotStanding, WhyNotStanding__Output as _agent_runtime_v1_WhyNotStanding__Output } from '../../agent_runtime/v1/WhyNotStanding';
import type { WhyNotStep as _agent_runtime_v1_WhyNotStep, WhyNotStep__Output as _agent_runtime_v1_WhyNotStep__Output } from '../../agent_runtime/v1/WhyNotStep';
import type { WhyNotRankedBefore as _agent_runtime_v1_WhyNotRankedBefore, WhyNotRankedBefore__Output as _agent_runtime_v1_WhyNotRankedBefore__Output } from '../../agent_runtime/v1/WhyNotRankedBefore';
import type { WhyNotBlocker as _agent_runtime_v1_WhyNotBlocker, WhyNotBlocker__Output as _agent_runtime_v1_WhyNotBlocker__Output } from '../../agent_runtime/v1/WhyNotBlocker';
import type { WhyNotEvent as _agent_runtime_v1_WhyNotEvent, WhyNotEvent__Output as _agent_runtime_v1_WhyNotEvent__Output } from '../../agent_runtime/v1/WhyNotEvent';

export interface WorkItemWhy {
  'agent_id'?: (string);
  'work_item_id'?: (string);
  'now'?: (string);
  /**
   * next | in_turn | held | waiting | blocked | surfaced | ranked_behind | completed | archived
   */
  'verdict'?: (string);
  'summary'?: (string);
  /**
   * Absent for an archived item.
   */
  'item'?: (_agent_runtime_v1_WorkItemWhyItem | null);
  'decision'?: (_agent_runtime_v1_Decision | null);
  /**
   * Absent for a completed or archived item.
   */
  'standing'?: (_agent_runtime_v1_WhyNotStanding | null);
  'ladder'?: (_agent_runtime_v1_WhyNotStep)[];
  'ranks_before'?: (_agent_runtime_v1_WhyNotRankedBefore)[];
  'ranks_before_total'?: (number);
  'blockers'?: (_agent_runtime_v1_WhyNotBlocker)[];
  'next_events'?: (_agent_runtime_v1_WhyNotEvent)[];
}

export interface WorkItemWhy__Output {
  'agent_id': (string);
  'work_item_id': (string);
  'now': (string);
  /**
   * next | in_turn | held | waiting | blocked | surfaced | ranked_behind | completed | archived
   */
  'verdict': (string);
  'summary': (string);
  /**
   * Absent for an archived item.
   */
  'item': (_agent_runtime_v1_WorkItemWhyItem__Output | null);
  'decision': (_agent_runtime_v1_Decision__Output | null);
  /**
   * Absent for a completed or archived item.
   */
  'standing': (_agent_runtime_v1_WhyNotStanding__Output | null);
  'ladder': (_agent_runtime_v1_WhyNotStep__Output)[];
  'ranks_before': (_agent_runtime_v1_WhyNotRankedBefore__Output)[];
  'ranks_before_total': (number);
  'blockers': (_agent_runtime_v1_WhyNotBlocker__Output)[];
  'next_events': (_agent_runtime_v1_WhyNotEvent__Output)[];
}
