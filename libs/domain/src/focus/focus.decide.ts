import { requireOpen, requireRegistered, requireWorkItem } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { assertValidId } from '../shared/ids';
import { requireTrimmedText } from '../shared/text';
import type { Warning } from '../shared/warnings';
import { currentWorkItem, type Readiness, readinessOf } from '../views/scheduling';
import type { PickWorkItem } from './focus.commands';
import type { FocusReleaseReason, SwitchKind, WorkItemFocusReleased, WorkItemPicked } from './focus.events';

export const PICK_REASON_MAX_LENGTH = 2000;

export const MISSING_PICK_REASON_WARNING = 'missing_pick_reason_for_runnable_focus_switch';

/** Absent or blank -> null; otherwise trimmed (at most 2000 characters). */
function normalizeReason(reason: unknown): string | null {
  if (reason === undefined || reason === null) return null;
  if (typeof reason === 'string' && reason.trim() === '') return null;
  return requireTrimmedText(reason, 'reason', { min: 1, max: PICK_REASON_MAX_LENGTH, shape: 'lines' });
}

function switchKindOf(previousId: string | null, targetId: string, previousReadiness: Readiness | null): SwitchKind {
  if (previousId === targetId) return 'same_work_item';
  return previousReadiness === 'runnable' ? 'explicit_focus_override' : 'explicit_focus_pick';
}

function missingReasonWarning(previousId: string | null, targetId: string): Warning {
  return {
    kind: MISSING_PICK_REASON_WARNING,
    message: `Focus moved from runnable work item ${previousId} to ${targetId} without a reason.`,
    previous_work_item_id: previousId,
    current_work_item_id: targetId,
  };
}

/** PickWorkItem: sets the focus; blocked or needs_input items are picked for inspection only. */
export function decidePickWorkItem(command: PickWorkItem, state: AgentState): WorkItemPicked[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const targetId = assertValidId(command.data.work_item_id, 'work_item_id');
  const reason = normalizeReason(command.data.reason);
  const target = requireOpen(requireWorkItem(state, targetId), 'pick');
  const previous = currentWorkItem(state);
  const previousId = previous?.id ?? null;
  const previousReadiness = previous ? readinessOf(state, previous) : null;
  const currentReadiness = readinessOf(state, target);
  const switchKind = switchKindOf(previousId, targetId, previousReadiness);
  const reasonRequired = switchKind === 'explicit_focus_override';
  const reasonMissing = reason === null;
  const warnings = reasonRequired && reasonMissing ? [missingReasonWarning(previousId, targetId)] : [];
  return [
    {
      type: 'WorkItemPicked',
      data: {
        agent_id: agentId,
        work_item_id: targetId,
        previous_work_item_id: previousId,
        current_work_item_id: targetId,
        reason,
        previous_readiness: previousReadiness,
        current_readiness: currentReadiness,
        switch_kind: switchKind,
        current_focus_mode: currentReadiness === 'runnable' ? 'runnable' : 'inspection',
        reason_required: reasonRequired,
        reason_missing: reasonMissing,
        warnings,
        at: now,
      },
    },
  ];
}

/** Releases the focus in the same decision when (and only when) the item is the focus. */
export function releaseFocusIfCurrent(
  state: AgentState,
  workItemId: string,
  reason: FocusReleaseReason,
  at: string,
): WorkItemFocusReleased[] {
  if (state.current_work_item_id !== workItemId || state.agent_id === null) return [];
  return [{ type: 'WorkItemFocusReleased', data: { agent_id: state.agent_id, work_item_id: workItemId, reason, at } }];
}
