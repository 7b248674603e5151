import { useEffect, useRef, useState } from 'preact/hooks';
import { apiGet, seg } from '../api';
import { BoardView } from '../components/board';
import { Badge, ClosureBadge, Empty, ErrorNote, LiveStatus, Loading, Section } from '../components/common';
import { DecisionTimeline } from '../components/decision';
import { DelegationsTable } from '../components/delegations';
import { IntentsTable, TasksTable, TimersTable } from '../components/records';
import { useAgentStream, useResource } from '../hooks';
import { announce } from '../live';
import { href } from '../router';
import type { Board, Decision, Delegation, List, SchedulerState, Task, Timer, WaitingIntent, WorkItem } from '../types';
import { CurrentWork, WhyNow } from './agent-now';

/** Re-reads while the read models have not caught up with the newest event seen (they are eventually consistent). */
const LAG_RETRY_MS = 300;
const LAG_RETRIES = 20;

/** One agent: what it would do now and why, its focus, its board, what it waits on, and its decisions, live. */
export function AgentView({ token, agentId }: { token: string; agentId: string }) {
  const base = `/v1/agents/${seg(agentId)}`;
  const get =
    <T,>(path: string) =>
    (signal: AbortSignal) =>
      apiGet<T>(token, `${base}${path}`, signal);
  const state = useResource(get<SchedulerState>('/state'), agentId);
  const current = useResource(get<List<WorkItem>>('/work-items?filter=current&limit=1'), agentId);
  const board = useResource(get<Board>('/board?per_class=20'), agentId);
  const intents = useResource(get<List<WaitingIntent>>('/waiting-intents?status=active&limit=100'), agentId);
  const tasks = useResource(get<List<Task>>('/tasks?limit=20'), agentId);
  const timers = useResource(get<List<Timer>>('/timers?status=scheduled&limit=20'), agentId);
  const decisions = useResource(get<List<Decision>>('/decisions?limit=30'), agentId);
  const delegations = useResource(get<List<Delegation>>('/delegations'), agentId);
  const all = [state, current, board, intents, tasks, timers, decisions, delegations];

  const newest = useRef(-1n);
  const retries = useRef(0);
  const refresh = () => Promise.all(all.map((resource) => resource.reload()));
  const status = useAgentStream(
    token,
    agentId,
    state.data ? state.data.revision : state.error ? null : undefined,
    (revision) => {
      if (revision > newest.current) newest.current = revision;
      retries.current = 0;
      void refresh();
    },
  );
  useEffect(() => {
    if (!state.data || BigInt(state.data.revision) >= newest.current || retries.current >= LAG_RETRIES) return;
    retries.current += 1;
    const timer = setTimeout(() => void refresh(), LAG_RETRY_MS);
    return () => clearTimeout(timer);
  }, [state.data]);
  const fresh = useFreshDecisions(decisions.data?.items);

  if (state.error && !state.data) {
    return (
      <>
        <h1 tabIndex={-1}>Agent {agentId}</h1>
        <ErrorNote error={state.error} what="this agent" />
        <p>
          <a href={href.agents()}>Back to the agents</a>
        </p>
      </>
    );
  }
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>Agent {agentId}</h1>
        {state.data && <Badge value={state.data.runtime_posture ?? state.data.posture} />}
        {state.data?.closure && <ClosureBadge closure={state.data.closure} />}
        <LiveStatus status={status} />
      </div>
      {!state.data ? <Loading what="the agent" /> : <WhyNow state={state.data} agentId={agentId} />}
      <CurrentWork resource={current} agentId={agentId} />
      <Section id="board" title="Board">
        <ErrorNote error={board.error} what="the board" />
        {board.data ? <BoardView board={board.data} agentId={agentId} /> : !board.error && <Loading what="the board" />}
      </Section>
      <Section id="waits" title="Waiting intents">
        <ErrorNote error={intents.error} what="waiting intents" />
        {intents.data && <IntentsTable intents={intents.data.items} agentId={agentId} />}
      </Section>
      <div class="two-up">
        <Section id="tasks" title="Tasks">
          <ErrorNote error={tasks.error} what="tasks" />
          {tasks.data && <TasksTable tasks={tasks.data.items} agentId={agentId} />}
        </Section>
        <Section id="timers" title="Timers">
          <ErrorNote error={timers.error} what="timers" />
          {timers.data && <TimersTable timers={timers.data.items} agentId={agentId} />}
        </Section>
      </div>
      <Section id="delegations" title="Delegations">
        <ErrorNote error={delegations.error} what="delegations" />
        {delegations.data && <DelegationsTable delegations={delegations.data.items} agentId={agentId} />}
      </Section>
      <Section
        id="decisions"
        title="Decision timeline"
        extra={decisions.data && <span class="muted">{decisions.data.total} recorded</span>}
      >
        <ErrorNote error={decisions.error} what="decisions" />
        {decisions.data &&
          (decisions.data.items.length ? (
            <DecisionTimeline decisions={decisions.data.items} agentId={agentId} fresh={fresh} />
          ) : (
            <Empty>No decision recorded yet.</Empty>
          ))}
      </Section>
    </>
  );
}

/** Decisions that arrived after the page opened: marked in the timeline and announced. */
function useFreshDecisions(items: Decision[] | undefined): ReadonlySet<string> {
  const known = useRef<Set<string> | null>(null);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (!items) return;
    const revisions = items.map((d) => d.revision ?? '');
    if (known.current === null) {
      known.current = new Set(revisions);
      return;
    }
    const added = items.filter((d) => !known.current!.has(d.revision ?? ''));
    if (!added.length) return;
    for (const d of added) known.current.add(d.revision ?? '');
    setFresh((previous) => new Set([...previous, ...added.map((d) => d.revision ?? '')]));
    announce(`New decision: ${added[0].kind}, ${added[0].reason}`);
  }, [items]);
  return fresh;
}
