// Original file: libs/contracts/proto/agent_runtime.proto

import type { ContextSection as _agent_runtime_v1_ContextSection, ContextSection__Output as _agent_runtime_v1_ContextSection__Output } from '../../agent_runtime/v1/ContextSection';
import type { Reminder as _agent_runtime_v1_Reminder, Reminder__Output as _agent_runtime_v1_Reminder__Output } from '../../agent_runtime/v1/Reminder';

export interface ContextProjection {
  'budget_tokens'?: (number);
  /**
   * ceil(characters / 4) of `text`.
   */
  'estimated_tokens'?: (number);
  'sections'?: (_agent_runtime_v1_ContextSection)[];
  'omitted_sections'?: (string)[];
  'trimmed_trace_entries'?: (number);
  'truncated'?: (boolean);
  'over_budget'?: (boolean);
  'text'?: (string);
  /**
   * What looks stale (docs/domain-contract.md §2, Reminders); never part of `text`.
   */
  'reminders'?: (_agent_runtime_v1_Reminder)[];
}

export interface ContextProjection__Output {
  'budget_tokens': (number);
  /**
   * ceil(characters / 4) of `text`.
   */
  'estimated_tokens': (number);
  'sections': (_agent_runtime_v1_ContextSection__Output)[];
  'omitted_sections': (string)[];
  'trimmed_trace_entries': (number);
  'truncated': (boolean);
  'over_budget': (boolean);
  'text': (string);
  /**
   * What looks stale (docs/domain-contract.md §2, Reminders); never part of `text`.
   */
  'reminders': (_agent_runtime_v1_Reminder__Output)[];
}
