import type { AgentState } from '../agent/agent.state';
import type { FocusEvent } from './focus.events';

/** Focus only moves the pointer: the items' revisions and updated_at are untouched. */
export function evolveFocus(state: AgentState, event: FocusEvent): AgentState {
  switch (event.type) {
    case 'WorkItemPicked':
      return { ...state, current_work_item_id: event.data.current_work_item_id };
    case 'WorkItemFocusReleased':
      return state.current_work_item_id === event.data.work_item_id ? { ...state, current_work_item_id: null } : state;
  }
}
