import type { Warning } from '../shared/warnings';
import type { Readiness } from '../views/scheduling';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type SwitchKind = 'explicit_focus_pick' | 'explicit_focus_override' | 'same_work_item';
export type FocusMode = 'runnable' | 'inspection';

/** The reason of a pick lives only on this event, never on the work item. */
export type WorkItemPicked = {
  type: 'WorkItemPicked';
  data: {
    agent_id: string;
    work_item_id: string;
    previous_work_item_id: string | null;
    current_work_item_id: string;
    reason: string | null;
    previous_readiness: Readiness | null;
    current_readiness: Readiness;
    switch_kind: SwitchKind;
    current_focus_mode: FocusMode;
    reason_required: boolean;
    reason_missing: boolean;
    warnings: Warning[];
    at: string;
  };
};

export type FocusReleaseReason = 'work_item_blocked' | 'work_item_needs_input' | 'work_item_completed';

export type WorkItemFocusReleased = {
  type: 'WorkItemFocusReleased';
  data: { agent_id: string; work_item_id: string; reason: FocusReleaseReason; at: string };
};

export type FocusEvent = WorkItemPicked | WorkItemFocusReleased;

export const FOCUS_EVENT_TYPES: ReadonlySet<string> = new Set<FocusEvent['type']>([
  'WorkItemPicked',
  'WorkItemFocusReleased',
]);

export function isFocusEvent(event: { type: string }): event is FocusEvent {
  return FOCUS_EVENT_TYPES.has(event.type);
}
