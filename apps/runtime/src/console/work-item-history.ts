import type { AgentEventItem } from '@app/application';

/** Fields that name the item directly. */
const ITEM_FIELDS = ['work_item_id', 'previous_work_item_id', 'current_work_item_id'] as const;
/** Records an item owns: an event naming one of them belongs to the item's history too. */
const LINK_FIELDS = ['intent_id', 'task_id', 'message_id', 'timer_id', 'turn_id'] as const;

/**
 * Follows one work item through an agent's stream in order: an event belongs to the item when it
 * names the item (directly or in its decision), or names a record (intent, task, message, timer,
 * turn) that an earlier event of the item named, unless it names another item (a turn bound to
 * this item may complete another one: that report belongs to the other item).
 */
export class WorkItemHistoryFilter {
  private readonly linked = new Set<string>();

  constructor(private readonly workItemId: string) {}

  accepts(event: AgentEventItem): boolean {
    const data = event.data;
    const decision = (data.decision ?? null) as Record<string, unknown> | null;
    const direct =
      ITEM_FIELDS.some((field) => data[field] === this.workItemId) || decision?.work_item_id === this.workItemId;
    const otherItem = typeof data.work_item_id === 'string' && data.work_item_id !== this.workItemId;
    const viaLink =
      !otherItem &&
      LINK_FIELDS.some(
        (field) => typeof data[field] === 'string' && this.linked.has(`${field}:${data[field] as string}`),
      );
    if (!direct && !viaLink) return false;
    for (const field of LINK_FIELDS)
      if (typeof data[field] === 'string') this.linked.add(`${field}:${data[field] as string}`);
    return true;
  }
}
