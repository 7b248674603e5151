import { CLASS_LABELS } from '../format';
import { href } from '../router';
import type { Board, BoardColumn, WorkItem } from '../types';
import { Time } from './common';

/** Candidate classes in the order the scheduler takes them, each with its items in ranking order. */
export function BoardView({ board, agentId }: { board: Board; agentId: string }) {
  return (
    <div class="board">
      {board.columns.map((column) => (
        <Column key={column.candidate_class} column={column} agentId={agentId} />
      ))}
    </div>
  );
}

function Column({ column, agentId }: { column: BoardColumn; agentId: string }) {
  const id = `class-${column.candidate_class}`;
  return (
    <section class={`column column-${column.candidate_class}`} aria-labelledby={id} data-class={column.candidate_class}>
      <h3 id={id}>
        {CLASS_LABELS[column.candidate_class]} <span class="count">{column.total}</span>
      </h3>
      {column.items.length === 0 ? (
        <p class="muted small">none</p>
      ) : (
        <ol class="cards">
          {column.items.map((item) => (
            <Card key={item.id} item={item} agentId={agentId} />
          ))}
        </ol>
      )}
      {column.total > column.items.length && <p class="muted small">and {column.total - column.items.length} more</p>}
    </section>
  );
}

function Card({ item, agentId }: { item: WorkItem; agentId: string }) {
  const operatorWaits = item.waiting_intents.filter((i) => i.status === 'active' && i.wake === 'operator_input');
  const triggered = item.waiting_intents.filter((i) => i.status === 'active' && i.trigger_count > 0);
  return (
    <li class="card">
      <a href={href.workItem(agentId, item.id)}>{item.objective}</a>
      {item.current_todo && item.state === 'open' && <div class="small muted">now: {item.current_todo.text}</div>}
      {triggered.map((i) => (
        <div class="small" key={i.id}>
          triggered {i.trigger_count}× by {i.source ?? i.wake}, last <Time iso={i.last_triggered_at} />
        </div>
      ))}
      {item.plan_status === 'needs_input' && <div class="small">plan needs input</div>}
      {operatorWaits.map((i) => (
        <div class="small" key={i.id}>
          asks: {i.reason}
        </div>
      ))}
      {item.blocked_by && !operatorWaits.some((i) => i.reason === item.blocked_by) && (
        <div class="small">blocked: {item.blocked_by}</div>
      )}
      {item.completion_report && <blockquote class="report small">{item.completion_report.text}</blockquote>}
      {item.state === 'completed' && !item.completion_report && <div class="small muted">no report</div>}
    </li>
  );
}
