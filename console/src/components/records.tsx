import { words } from '../format';
import { href } from '../router';
import type { Task, Timer, WaitingIntent } from '../types';
import { Badge, Empty, Time } from './common';

const ItemLink = ({ agentId, id }: { agentId: string; id: string | null }) =>
  id ? <a href={href.workItem(agentId, id)}>{id}</a> : <span class="muted">agent</span>;

export function IntentsTable({ intents, agentId }: { intents: WaitingIntent[]; agentId: string }) {
  if (!intents.length) return <Empty>Nothing is awaited.</Empty>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Active waiting intents, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Waiting for</th>
            <th scope="col">Wake</th>
            <th scope="col">On</th>
            <th scope="col" class="num">
              Triggers
            </th>
            <th scope="col">Last trigger</th>
            <th scope="col">Since</th>
          </tr>
        </thead>
        <tbody>
          {intents.map((intent) => (
            <tr key={intent.id} data-intent={intent.id}>
              <td>
                {intent.reason}
                {intent.resource && <div class="small muted">{intent.resource}</div>}
              </td>
              <td>
                {words(intent.wake)}
                {intent.source && <div class="small muted">from {intent.source}</div>}
              </td>
              <td>
                <ItemLink agentId={agentId} id={intent.work_item_id} />
              </td>
              <td class="num">{intent.trigger_count}</td>
              <td>
                <Time iso={intent.last_triggered_at} />
              </td>
              <td>
                <Time iso={intent.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TasksTable({ tasks, agentId }: { tasks: Task[]; agentId: string }) {
  if (!tasks.length) return <Empty>No tasks.</Empty>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Tasks, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Status</th>
            <th scope="col">Item</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr key={task.id}>
              <td>
                <code>{task.id}</code> {task.kind}
                {task.summary && <div class="small muted">{task.summary}</div>}
              </td>
              <td>
                <Badge value={task.status} /> <span class="small muted">{task.wait_policy}</span>
                {task.detail && <div class="small">{task.detail}</div>}
              </td>
              <td>
                <ItemLink agentId={agentId} id={task.work_item_id} />
              </td>
              <td>
                <Time iso={task.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TimersTable({ timers, agentId }: { timers: Timer[]; agentId: string }) {
  if (!timers.length) return <Empty>No timers scheduled.</Empty>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Scheduled timers, soonest first</caption>
        <thead>
          <tr>
            <th scope="col">Fires</th>
            <th scope="col">Item</th>
            <th scope="col">Resume text</th>
          </tr>
        </thead>
        <tbody>
          {timers.map((timer) => (
            <tr key={timer.id}>
              <td>
                <Time iso={timer.fire_at} />
              </td>
              <td>
                <ItemLink agentId={agentId} id={timer.work_item_id} />
              </td>
              <td>{timer.resume_text ?? <span class="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
