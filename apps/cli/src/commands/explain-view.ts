import { explainState, whyNot } from '@app/domain';
import { type AgentStreamSource, stateAt } from './replay-source';

/*
 * What `explain` prints, as one JSON value: the domain's explanation (views/explanation.ts: the
 * decision at `now`, and for each open work item why it is or is not runnable) at a revision.
 */

/** The explanation at revision `at` (null: the end), with `now` from the flag or the event's recorded_at. */
export function explainAt(source: AgentStreamSource, at: number | null, now: string | null) {
  const { state, revision, last } = stateAt(source, at);
  const instant = now ?? source.stored[revision].recorded_at;
  const explanation = explainState(state, instant);
  return {
    agent_id: source.agentId,
    source: source.origin,
    revision,
    last_revision: last,
    now: instant,
    now_source: now === null ? `recorded_at of revision ${revision}` : '--now',
    ...explanation,
    // Each open item's why-not verdict and standing (the whole view: `explain --item <w>`).
    work_items: explanation.work_items.map((item) => {
      const view = whyNot(state, item.id, instant)!;
      return { ...item, why_not: { verdict: view.verdict, standing: view.standing, summary: view.summary } };
    }),
  };
}

export type ExplainReply = ReturnType<typeof explainAt>;
