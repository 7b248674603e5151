import { href } from '../router';
import type { List, StrandedEntry, StrandedKind } from '../types';
import { Empty, ErrorNote, Loading, Time } from './common';

/** What each stranded condition means to an operator (docs/domain-contract.md §12). */
export const STRANDED_TEXT: Record<StrandedKind, string> = {
  runnable_without_decision: 'Runnable work the scheduler has not decided on',
  model_turn_waiting_for_host: 'Waiting for an agent host',
  turn_past_lease: 'A turn past its lease that was not expired',
  task_past_expected_end: 'A task past its expected end',
  timer_overdue: 'A timer overdue',
  timer_wait_without_timer: 'A timer wait with no timer left',
  task_wait_without_task: 'A task wait on a finished or unknown task',
  blocked_without_wait: 'Blocked, with no wait and no recheck',
  delegation_counterpart_missing: "A delegation the other agent's stream does not show",
  asleep_with_queued_messages: 'Asleep with messages queued',
};

const subjectText = (entry: StrandedEntry): string => {
  const s = entry.subject;
  const parts = [
    s.message_id && `message ${s.message_id}`,
    s.turn_id && `turn ${s.turn_id}`,
    s.task_id && `task ${s.task_id}`,
    s.timer_id && `timer ${s.timer_id}`,
    s.intent_id && `wait ${s.intent_id}`,
    s.delegation_id && `delegation ${s.delegation_id}`,
  ].filter(Boolean);
  return parts.join(', ');
};

/** Work that will not move by itself, across the token's agents, oldest stranded first. */
export function StrandedTable({ list, error }: { list: List<StrandedEntry> | undefined; error: Error | undefined }) {
  return (
    <>
      <ErrorNote error={error} what="the stranded work" />
      {!list ? (
        !error && <Loading what="the stranded work" />
      ) : list.items.length === 0 ? (
        <Empty>Nothing is stranded.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="stranded">
            <caption>
              {list.total} stranded condition{list.total === 1 ? '' : 's'}, oldest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Stranded since</th>
                <th scope="col">Agent</th>
                <th scope="col">What</th>
                <th scope="col">Evidence</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((entry, i) => (
                <tr key={`${entry.agent_id}/${entry.kind}/${i}`} data-kind={entry.kind}>
                  <td>
                    <Time iso={entry.stranded_at} />
                  </td>
                  <td>
                    <a href={href.agent(entry.agent_id)}>{entry.agent_id}</a>
                  </td>
                  <td>
                    <div>{STRANDED_TEXT[entry.kind] ?? entry.kind}</div>
                    {entry.subject.work_item_id && (
                      <a href={href.workItem(entry.agent_id, entry.subject.work_item_id)}>
                        {entry.subject.work_item_id}
                      </a>
                    )}{' '}
                    {subjectText(entry)}
                  </td>
                  <td>
                    <code>{entry.evidence.join(' · ')}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
