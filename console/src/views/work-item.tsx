import { apiGet, apiText, seg } from '../api';
import { Empty, ErrorNote, Loading, Section, Time } from '../components/common';
import { HistoryTable } from '../components/history';
import { WhyNotPanel } from '../components/why-not';
import { IntentsTable } from '../components/records';
import { useAgentStream, useResource } from '../hooks';
import { href } from '../router';
import type { AgentEvent, List, WorkItem, WorkItemWhy } from '../types';
import { WorkItemSummary } from './agent-now';

/** One work item: its state, its whole plan, and its history (every event about it, with who caused it), live. */
export function WorkItemPage({ token, agentId, workItemId }: { token: string; agentId: string; workItemId: string }) {
  const base = `/v1/agents/${seg(agentId)}`;
  const itemPath = `${base}/work-items/${seg(workItemId)}`;
  const key = `${agentId}/${workItemId}`;
  const agent = useResource((signal) => apiGet<{ revision: string }>(token, base, signal), key);
  const item = useResource((signal) => apiGet<WorkItem>(token, itemPath, signal), key);
  const plan = useResource((signal) => apiText(token, `${itemPath}/plan`, signal), key);
  const why = useResource((signal) => apiGet<WorkItemWhy>(token, `${itemPath}/why`, signal), key);
  const history = useResource(
    (signal) => apiGet<List<AgentEvent>>(token, `${itemPath}/history?limit=500`, signal),
    key,
  );
  useAgentStream(token, agentId, agent.data ? agent.data.revision : agent.error ? null : undefined, () => {
    void Promise.all([item.reload(), plan.reload(), history.reload(), why.reload()]);
  });

  const title = item.data ? item.data.objective : `Work item ${workItemId}`;
  return (
    <>
      <nav aria-label="Breadcrumb" class="crumbs">
        <a href={href.agents()}>Agents</a> › <a href={href.agent(agentId)}>{agentId}</a> ›{' '}
        <span aria-current="page">{workItemId}</span>
      </nav>
      <h1 tabIndex={-1}>{title}</h1>
      <ErrorNote error={item.error} what="the work item" />
      {!item.data && !item.error && <Loading what="the work item" />}
      {item.data && (
        <>
          <Section id="item" title="State">
            <WorkItemSummary item={item.data} agentId={agentId} standalone />
            {item.data.completion_report && (
              <>
                <h3>Completion report</h3>
                <blockquote class="report">{item.data.completion_report.text}</blockquote>
                <p class="muted small">from {item.data.completion_report.source.replace(/_/g, ' ')}</p>
              </>
            )}
            <p class="muted small">
              Created <Time iso={item.data.created_at} />, revision {item.data.revision}.
            </p>
          </Section>
          <Section id="item-why" title="Why (not) next">
            <ErrorNote error={why.error} what="why the item is (not) next" />
            {why.data && <WhyNotPanel why={why.data} />}
          </Section>
          <Section id="item-waits" title="Waiting intents on this item">
            {item.data.waiting_intents.length ? (
              <IntentsTable intents={item.data.waiting_intents} agentId={agentId} />
            ) : (
              <Empty>None active.</Empty>
            )}
          </Section>
        </>
      )}
      <Section
        id="plan"
        title="Plan"
        extra={
          item.data && (
            <span class="muted small">{item.data.plan_artifact.relative_path ?? item.data.plan_artifact.path}</span>
          )
        }
      >
        <ErrorNote error={plan.error} what="the plan" />
        {plan.data !== undefined &&
          (plan.data.trim() ? (
            <pre class="plan" tabIndex={0} aria-label="Plan">
              {plan.data}
            </pre>
          ) : (
            <Empty>The plan is empty.</Empty>
          ))}
      </Section>
      <Section
        id="history"
        title="History"
        extra={history.data && <span class="muted small">{history.data.total} events</span>}
      >
        <ErrorNote error={history.error} what="the history" />
        {history.data && <HistoryTable events={history.data.items} total={history.data.total} />}
      </Section>
    </>
  );
}
