import { Badge, Empty, ErrorNote, Section, Time } from '../components/common';
import { DecisionSummary } from '../components/decision';
import { TodoList } from '../components/todos';
import { words } from '../format';
import type { Resource } from '../hooks';
import { href } from '../router';
import type { List, SchedulerState, WorkItem } from '../types';

/** The answer to "why is this agent (not) doing anything?": the decision the scheduler would take now, and what it rests on. */
export function WhyNow({ state, agentId }: { state: SchedulerState; agentId: string }) {
  const facts = [
    state.open_turn && (
      <li key="turn">
        In turn <code>{state.open_turn.turn_id}</code> (#{state.open_turn.turn_index}); lease{' '}
        {state.open_turn.lease_expired ? 'expired' : 'ends'} <Time iso={state.open_turn.lease_expires_at} />
      </li>
    ),
    <li key="queue">
      {state.queue.count} queued message{state.queue.count === 1 ? '' : 's'}
      {state.queue.head && (
        <>
          {' '}
          — next: {words(state.queue.head.kind)} ({state.queue.head.priority}), {state.queue.head.reason}
        </>
      )}
    </li>,
    state.pending_wake_hint && (
      <li key="hint">
        Pending wake hint from {state.pending_wake_hint.source}: {state.pending_wake_hint.reason}
      </li>
    ),
    state.next_due_at && (
      <li key="due">
        Next due <Time iso={state.next_due_at} />
      </li>
    ),
    !state.projection_lag.caught_up && (
      <li key="lag" class="warn">
        Read models are catching up (checkpoint {state.projection_lag.checkpoint} of {state.projection_lag.head ?? '?'}
        ).
      </li>
    ),
  ].filter(Boolean);
  return (
    <Section id="now" title="What it would do now, and why">
      <DecisionSummary decision={state.next_decision} agentId={agentId} />
      <ul class="facts">{facts}</ul>
      {state.last_decision && (
        <p class="muted small">
          Last recorded: <strong>{state.last_decision.kind}</strong> {state.last_decision.reason},{' '}
          <Time iso={state.last_decision.recorded_at} />
        </p>
      )}
    </Section>
  );
}

/** The focus: objective, plan preview, todos with the current one marked, blocker. */
export function CurrentWork({ resource, agentId }: { resource: Resource<List<WorkItem>>; agentId: string }) {
  const item = resource.data?.items[0];
  return (
    <Section id="current" title="Current work item">
      <ErrorNote error={resource.error} what="the current work item" />
      {resource.data && !item && <Empty>No work item has the focus.</Empty>}
      {item && <WorkItemSummary item={item} agentId={agentId} />}
    </Section>
  );
}

/** On its own page (`standalone`) an item has no self-link and shows its whole plan elsewhere, not the preview. */
export function WorkItemSummary({
  item,
  agentId,
  standalone = false,
}: {
  item: WorkItem;
  agentId: string;
  standalone?: boolean;
}) {
  return (
    <div class="work-item">
      <p class="objective">
        {standalone ? item.objective : <a href={href.workItem(agentId, item.id)}>{item.objective}</a>}{' '}
        <span class="muted">({item.id})</span>
      </p>
      <p>
        <Badge value={item.readiness} /> <span class="muted">plan</span> <Badge value={item.plan_status} tone="plan" />{' '}
        <span class="muted">updated</span> <Time iso={item.updated_at} />
      </p>
      {item.blocked_by && (
        <p class="blocker">
          <strong>Blocked by:</strong> {item.blocked_by}
          {item.recheck_at && (
            <>
              {' '}
              (recheck <Time iso={item.recheck_at} />)
            </>
          )}
        </p>
      )}
      <h3>Todos</h3>
      <TodoList todos={item.todo_list} current={item.current_todo} />
      {!standalone && <PlanPreview item={item} />}
    </div>
  );
}

function PlanPreview({ item }: { item: WorkItem }) {
  return (
    <>
      <h3>Plan preview</h3>
      {item.plan_artifact.preview ? (
        <pre class="plan" tabIndex={0} aria-label="Plan preview">
          {item.plan_artifact.preview}
          {item.plan_artifact.preview_complete ? '' : '\n…'}
        </pre>
      ) : (
        <p class="muted">The plan is empty.</p>
      )}
    </>
  );
}
