import { apiGet } from '../api';
import { Badge, Empty, ErrorNote, LiveStatus, Loading, Time } from '../components/common';
import { CLASS_LABELS, CLASS_ORDER, CLASS_SHORT } from '../format';
import { useChanges, useResource } from '../hooks';
import { href } from '../router';
import type { AgentOverview, List } from '../types';

/** Every agent the token may see: posture, focus, candidates per class and the last decision. */
export function AgentsView({ token }: { token: string }) {
  const agents = useResource((signal) => apiGet<List<AgentOverview>>(token, '/v1/agents?limit=500', signal), 'agents');
  const live = useChanges(token, agents.reload);
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Agents</h1>
        <LiveStatus status={live} />
      </div>
      <p class="lede">
        Why is an agent not doing anything? Its last decision says what it waits for; open it for the evidence.
      </p>
      <ErrorNote error={agents.error} what="the agents" />
      {!agents.data ? (
        agents.error ? null : (
          <Loading what="agents" />
        )
      ) : agents.data.items.length === 0 ? (
        <Empty>No agents yet.</Empty>
      ) : (
        <AgentsTable agents={agents.data.items} total={agents.data.total} />
      )}
    </>
  );
}

function AgentsTable({ agents, total }: { agents: AgentOverview[]; total: number }) {
  return (
    <div class="table-wrap">
      <table class="agents">
        <caption>
          {agents.length === total ? `${total} agents` : `${agents.length} of ${total} agents`}, by id; counts per
          candidate class in scheduler order
        </caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Posture</th>
            <th scope="col">Focus</th>
            {CLASS_ORDER.map((c) => (
              <th scope="col" class="num" key={c}>
                <abbr title={CLASS_LABELS[c]}>{CLASS_SHORT[c]}</abbr>
              </th>
            ))}
            <th scope="col">Last decision</th>
          </tr>
        </thead>
        <tbody>
          {agents.map((agent) => (
            <AgentRow key={agent.agent_id} agent={agent} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AgentRow({ agent }: { agent: AgentOverview }) {
  const focus = agent.current_work_item;
  const decision = agent.last_decision;
  return (
    <tr data-agent={agent.agent_id}>
      <th scope="row">
        <a href={href.agent(agent.agent_id)}>{agent.agent_id}</a>
      </th>
      <td>
        <Badge value={agent.posture} />
        {agent.open_turn && <span class="tag">in a turn</span>}
      </td>
      <td>
        {focus ? (
          <>
            <a href={href.workItem(agent.agent_id, focus.id)}>{focus.objective}</a>
            {focus.current_todo && <div class="muted small">now: {focus.current_todo.text}</div>}
            {focus.blocked_by && <div class="small">blocked: {focus.blocked_by}</div>}
          </>
        ) : (
          <span class="muted">no focus</span>
        )}
      </td>
      {CLASS_ORDER.map((c) => (
        <td class={`num${agent.candidate_counts[c] ? '' : ' muted'}`} key={c}>
          {agent.candidate_counts[c]}
        </td>
      ))}
      <td class="last-decision">
        {decision ? (
          <>
            <strong>{decision.kind}</strong> <span>{decision.reason}</span>
            <div class="muted small">
              <Time iso={decision.recorded_at} />
            </div>
          </>
        ) : (
          <span class="muted">none recorded</span>
        )}
      </td>
    </tr>
  );
}
