// Original file: proto/agent_runtime.proto


/**
 * One rung of the ladder (docs/domain-contract.md §5), evaluated on its own.
 */
export interface WhyNotStep {
  'rung'?: (number);
  /**
   * gate | open_turn | queue_head | wake_hint | continue_active | triggered_review
   * | queued_available | work_item_recheck | waits | idle
   */
  'rule'?: (string);
  'applies'?: (boolean);
  'kind'?: (string);
  'reason'?: (string);
  'work_item_id'?: (string);
  'concerns_item'?: (boolean);
  '_kind'?: "kind";
  '_reason'?: "reason";
  '_work_item_id'?: "work_item_id";
}

/**
 * One rung of the ladder (docs/domain-contract.md §5), evaluated on its own.
 */
export interface WhyNotStep__Output {
  'rung': (number);
  /**
   * gate | open_turn | queue_head | wake_hint | continue_active | triggered_review
   * | queued_available | work_item_recheck | waits | idle
   */
  'rule': (string);
  'applies': (boolean);
  'kind'?: (string);
  'reason'?: (string);
  'work_item_id'?: (string);
  'concerns_item': (boolean);
  '_kind'?: "kind";
  '_reason'?: "reason";
  '_work_item_id'?: "work_item_id";
}
