// Original file: proto/agent_runtime.proto

import type { ArchivedCounts as _agent_runtime_v1_ArchivedCounts, ArchivedCounts__Output as _agent_runtime_v1_ArchivedCounts__Output } from '../../agent_runtime/v1/ArchivedCounts';

export interface ArchiveWorkItemsReply {
  'agent_id'?: (string);
  'completed_before'?: (string);
  /**
   * False when nothing was older than the cut-off (nothing recorded).
   */
  'archived'?: (boolean);
  'work_item_ids'?: (string)[];
  'counts'?: (_agent_runtime_v1_ArchivedCounts | null);
  'revision'?: (string);
  'position'?: (string);
  '_position'?: "position";
}

export interface ArchiveWorkItemsReply__Output {
  'agent_id': (string);
  'completed_before': (string);
  /**
   * False when nothing was older than the cut-off (nothing recorded).
   */
  'archived': (boolean);
  'work_item_ids': (string)[];
  'counts': (_agent_runtime_v1_ArchivedCounts__Output | null);
  'revision': (string);
  'position'?: (string);
  '_position'?: "position";
}
