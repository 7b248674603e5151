import type { DelegationView } from '@app/domain';
import { commandReply } from './commands.schemas';
import { arrayOf, bool, dateTime, listOf, nullable, oneOfStrings, ref, shapeOf, str } from './schema';

// Delegation (issue 17): the view of one delegation from one side, SpawnAgent's reply, the list.

const STATES = ['delegated', 'working', 'completed', 'cancelled', 'failed'];

const delegation = shapeOf<DelegationView>()(
  {
    delegation_id: str(),
    direction: oneOfStrings(
      ['child', 'parent'],
      'child: this agent delegated to the child; parent: it works for the parent',
    ),
    parent_agent_id: str(),
    parent_work_item_id: str("the delegating item: the child's result re-enters the parent on it"),
    child_agent_id: str(),
    child_work_item_id: nullable(str('the first item the child created while serving the delegation message')),
    state: oneOfStrings(STATES, 'both sides merged: the further along wins'),
    counterpart_state: nullable(oneOfStrings(STATES), "the other stream's own state; null: it has no record"),
    result_summary: nullable(str("the child's completion report")),
    reason: nullable(str('why it ended cancelled or failed (child_stopped, child_turn_failed)')),
    label: str("the child task's label, derived once from the initial message"),
    task_id: str("the parent's child_agent task"),
    delegated_at: dateTime(),
    ended_at: nullable(dateTime()),
    flagged: bool('a counterpart event is missing for longer than DELEGATION_FLAG_AFTER_MS'),
    flag: nullable(oneOfStrings(['counterpart_missing', 'completion_missing'])),
  },
  { description: 'One delegation as one agent sees it (docs/domain-contract.md §11).' },
);

export const DELEGATION_SCHEMAS = {
  Delegation: delegation,
  SpawnAgentReply: commandReply({
    workspace_mode: oneOfStrings(['private_child', 'public_named']),
    child_agent_id: str(),
    delegation: nullable(ref('Delegation'), 'private_child only'),
    task: nullable(ref('Task'), "private_child only: the parent's supervised child_agent task"),
    child_message_id: nullable(str("the child's first message (the delegation message, or a bootstrap message)")),
    warnings: arrayOf(ref('Warning'), 'always an array (empty)'),
  }),
  DelegationList: listOf(ref('Delegation'), 'both directions, oldest first'),
};
