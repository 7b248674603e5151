import { apiGet } from '../api';
import { Empty, ErrorNote, LiveStatus, Loading, Time } from '../components/common';
import { StrandedTable } from '../components/stranded';
import { useChanges, useResource } from '../hooks';
import { href } from '../router';
import type { AttentionItem, List, StrandedEntry } from '../types';

/** Every work item waiting for an operator, across the token's agents, oldest wait first. */
export function AttentionView({ token }: { token: string }) {
  const list = useResource(
    (signal) => apiGet<List<AttentionItem>>(token, '/v1/attention?limit=500', signal),
    'attention',
  );
  const stranded = useResource(
    (signal) => apiGet<List<StrandedEntry>>(token, '/v1/stranded?limit=500', signal),
    'stranded',
  );
  const live = useChanges(token, () => (list.reload(), stranded.reload()));
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Needs attention</h1>
        <LiveStatus status={live} />
      </div>
      <p class="lede">Work items waiting for an operator, oldest first: answer these and the agents can go on.</p>
      <ErrorNote error={list.error} what="the attention list" />
      {!list.data ? (
        !list.error && <Loading what="the attention list" />
      ) : list.data.items.length === 0 ? (
        <Empty>Nothing waits for an operator.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="attention">
            <caption>
              {list.data.total} work item{list.data.total === 1 ? '' : 's'} waiting for an operator, oldest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Waiting since</th>
                <th scope="col">Agent</th>
                <th scope="col">Work item</th>
                <th scope="col">Asks</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((entry) => (
                <tr key={`${entry.agent_id}/${entry.work_item.id}`} data-item={entry.work_item.id}>
                  <td>
                    <Time iso={entry.waiting_since} />
                  </td>
                  <td>
                    <a href={href.agent(entry.agent_id)}>{entry.agent_id}</a>
                  </td>
                  <td>
                    <a href={href.workItem(entry.agent_id, entry.work_item.id)}>{entry.work_item.objective}</a>
                  </td>
                  <td>
                    {entry.reasons.includes('needs_input') && <div>The plan needs input.</div>}
                    {entry.operator_waits.map((wait) => (
                      <div key={wait.id}>{wait.reason}</div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Stranded work</h2>
      <p class="lede">
        What will not move by itself (ADR 0036): a decision nobody took, a model turn waiting for an agent host, a lease
        or timer past due, a wait nothing can trigger.
      </p>
      <StrandedTable list={stranded.data} error={stranded.error} />
    </>
  );
}
