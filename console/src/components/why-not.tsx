import { Empty, Time } from './common';
import type { WorkItemWhy } from '../types';

/** Why the item is (not) next: the verdict, where it stands on the ladder, what ranks before it, what holds it, what would help. */
export function WhyNotPanel({ why }: { why: WorkItemWhy }) {
  return (
    <>
      <p>
        <span class={`badge badge-${why.verdict}`}>{why.verdict.replace(/_/g, ' ')}</span>{' '}
        {why.standing && (
          <span class="muted">
            rung {why.standing.rung} ({why.standing.rule.replace(/_/g, ' ')})
            {why.standing.rank !== null && `, #${why.standing.rank} of ${why.standing.of}`}
          </span>
        )}
      </p>
      <p class="why-summary">{why.summary}</p>
      <h3>What holds it</h3>
      {why.blockers.length ? (
        <ul>
          {why.blockers.map((b) => (
            <li key={`${b.kind}-${b.id ?? ''}`}>
              {b.detail}
              {b.until && (
                <>
                  {' '}
                  (until <Time iso={b.until} />)
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <Empty>Nothing holds it.</Empty>
      )}
      <h3>What ranks before it</h3>
      {why.ranks_before.length ? (
        <ul>
          {why.ranks_before.map((r) => (
            <li key={`${r.rule}-${r.kind}-${r.id}`}>
              <code>{r.id}</code> (rung {r.rung}, {r.rule.replace(/_/g, ' ')}): {r.why}
            </li>
          ))}
          {why.ranks_before_total > why.ranks_before.length && (
            <li class="muted">and {why.ranks_before_total - why.ranks_before.length} more</li>
          )}
        </ul>
      ) : (
        <Empty>Nothing ranks before it.</Empty>
      )}
      <h3>What would make it next</h3>
      {why.next_events.length ? (
        <ul>
          {why.next_events.map((e, index) => (
            <li key={index}>
              {e.event && <code>{e.event}</code>} {e.description}
              {e.at && (
                <>
                  {' '}
                  (<Time iso={e.at} />)
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <Empty>Nothing: it is next, completed or archived.</Empty>
      )}
    </>
  );
}
