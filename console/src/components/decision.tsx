import { href } from '../router';
import type { Decision } from '../types';
import { Badge, Time } from './common';

/** A scheduler decision: its kind, why, and the evidence it names. */
export function DecisionSummary({ decision, agentId }: { decision: Decision; agentId: string }) {
  return (
    <div class="decision">
      <p class="decision-head">
        <Badge value={decision.kind} tone="decision" /> <span class="reason">{decision.reason}</span>
        {decision.liveness_only && <span class="tag">liveness only</span>}
        {decision.model_reentry && <span class="tag">re-enters the model</span>}
        {decision.closure && <span class="tag">closure {decision.closure.closure}</span>}
      </p>
      <DecisionRefs decision={decision} agentId={agentId} />
      {decision.evidence.length > 0 && (
        <ul class="evidence" aria-label="Evidence">
          {decision.evidence.map((item, index) => (
            <li key={index}>
              <code>{item}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function DecisionRefs({ decision, agentId }: { decision: Decision; agentId: string }) {
  const refs = [
    decision.work_item_id && (
      <span key="w">
        work item <a href={href.workItem(agentId, decision.work_item_id)}>{decision.work_item_id}</a>
      </span>
    ),
    decision.message_id && (
      <span key="m">
        message <code>{decision.message_id}</code>
      </span>
    ),
    decision.task_id && (
      <span key="t">
        task <code>{decision.task_id}</code>
      </span>
    ),
    decision.idempotency_key && (
      <span key="k">
        key <code>{decision.idempotency_key}</code>
      </span>
    ),
  ].filter(Boolean);
  return refs.length ? <p class="refs">{refs}</p> : null;
}

/** Recorded decisions, newest first; the ones that arrived live are marked. */
export function DecisionTimeline({
  decisions,
  agentId,
  fresh,
}: {
  decisions: Decision[];
  agentId: string;
  fresh: ReadonlySet<string>;
}) {
  return (
    <ol class="timeline" reversed aria-label="Recorded decisions, newest first">
      {decisions.map((decision) => {
        const isFresh = decision.revision !== undefined && fresh.has(decision.revision);
        return (
          <li key={decision.revision} class={isFresh ? 'fresh' : undefined} data-revision={decision.revision}>
            <p class="when">
              <Time iso={decision.recorded_at} /> <span class="muted">revision {decision.revision}</span>
              {isFresh && <span class="tag tag-new">new</span>}
            </p>
            <DecisionSummary decision={decision} agentId={agentId} />
          </li>
        );
      })}
    </ol>
  );
}
