// Original file: proto/agent_runtime.proto

import type { ContextSection as _agent_runtime_v1_ContextSection, ContextSection__Output as _agent_runtime_v1_ContextSection__Output } from '../../agent_runtime/v1/ContextSection';

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
}
