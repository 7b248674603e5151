import { requireLabel } from '../queue/message.validation';
import { assertValidId } from '../shared/ids';
import { requireTrimmedText } from '../shared/text';
import {
  forbidField,
  optionalOneOf,
  optionalTrimmedText,
  requireOneOf,
  requirePresent,
  requireTimestamp,
  requireValidId,
} from '../shared/validation';
import { BLOCKED_BY_MAX_LENGTH } from '../work-item/work-item.validation';
import type { WaitFor } from './waiting-intent.commands';
import {
  DELIVERY_MODES,
  type DeliveryMode,
  WAIT_SCOPES,
  WAIT_WAKES,
  type WaitScope,
  type WaitWake,
} from './waiting-intent.state';

/** The reason becomes the item's `blocked_by`, so it has the same limits (1..2000 after trimming). */
export const WAIT_REASON_MAX_LENGTH = BLOCKED_BY_MAX_LENGTH;
export const WAIT_CONDITION_MAX_LENGTH = 2000;
export const WAIT_RESOURCE_MAX_LENGTH = 500;
export const CALLBACK_TOKEN_HASH_MAX_LENGTH = 256;

export type WaitForInput = {
  scope: WaitScope;
  work_item_id: string | null;
  intent_id: string;
  wake: WaitWake;
  reason: string;
  source: string | null;
  condition: string | null;
  delivery_mode: DeliveryMode;
  resource: string | null;
  fire_at: string | null;
  timer_id: string | null;
  callback_token_hash: string | null;
};

type WakeFields = Pick<WaitForInput, 'resource' | 'fire_at' | 'timer_id' | 'callback_token_hash'>;

function scopedItemId(scope: WaitScope, value: unknown): string | null {
  if (scope === 'agent') return forbidField(value, 'work_item_id', 'not_allowed_at_agent_scope');
  return requireValidId(value, 'work_item_id');
}

/** task_result: the task id; external: required text; other wakes: optional text. */
function resourceOf(wake: WaitWake, value: unknown): string | null {
  if (wake === 'task_result')
    return assertValidId(requirePresent(value ?? null, 'resource', 'required_for_task_result'), 'resource');
  const resource = optionalTrimmedText(value, 'resource', { min: 1, max: WAIT_RESOURCE_MAX_LENGTH });
  return wake === 'external' ? requirePresent(resource, 'resource', 'required_for_external') : resource;
}

function wakeFields(wake: WaitWake, data: WaitFor['data']): WakeFields {
  const timer = wake === 'timer';
  const hash = optionalTrimmedText(data.callback_token_hash, 'callback_token_hash', {
    min: 1,
    max: CALLBACK_TOKEN_HASH_MAX_LENGTH,
  });
  return {
    resource: resourceOf(wake, data.resource),
    fire_at: timer ? requireTimestamp(data.fire_at, 'fire_at') : forbidField(data.fire_at, 'fire_at', 'only_for_timer'),
    timer_id: timer
      ? requireValidId(data.timer_id, 'timer_id')
      : forbidField(data.timer_id, 'timer_id', 'only_for_timer'),
    callback_token_hash:
      wake === 'external' ? requirePresent(hash, 'callback_token_hash', 'required_for_external') : hash,
  };
}

/** Field shapes of WaitFor (validation_failed); existence and state are checked by the decider. */
export function validateWaitFor(data: WaitFor['data']): WaitForInput {
  const scope = requireOneOf(data.scope, 'scope', WAIT_SCOPES);
  const wake = requireOneOf(data.wake, 'wake', WAIT_WAKES);
  return {
    scope,
    work_item_id: scopedItemId(scope, data.work_item_id),
    intent_id: requireValidId(data.intent_id, 'intent_id'),
    wake,
    reason: requireTrimmedText(data.reason, 'reason', { min: 1, max: WAIT_REASON_MAX_LENGTH, shape: 'lines' }),
    source: data.source === undefined || data.source === null ? null : requireLabel(data.source, 'source'),
    condition: optionalTrimmedText(data.condition, 'condition', {
      min: 1,
      max: WAIT_CONDITION_MAX_LENGTH,
      shape: 'lines',
    }),
    delivery_mode: optionalOneOf(data.delivery_mode, 'delivery_mode', DELIVERY_MODES, 'wake_hint'),
    ...wakeFields(wake, data),
  };
}
