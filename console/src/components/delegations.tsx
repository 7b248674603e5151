import { words } from '../format';
import { href } from '../router';
import type { Delegation } from '../types';
import { Badge, Empty, Time } from './common';

/**
 * An agent's delegations both ways: the children it delegated to (`child`) and the parent it
 * works for (`parent`), each with its state and the flag of a missing counterpart.
 */
export function DelegationsTable({ delegations, agentId }: { delegations: Delegation[]; agentId: string }) {
  if (!delegations.length) return <Empty>No delegations.</Empty>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">Delegations to children and from the parent, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Direction</th>
            <th scope="col">Agent</th>
            <th scope="col">Work</th>
            <th scope="col">State</th>
            <th scope="col">Result</th>
            <th scope="col">Since</th>
          </tr>
        </thead>
        <tbody>
          {delegations.map((d) => {
            const other = d.direction === 'child' ? d.child_agent_id : d.parent_agent_id;
            const item = d.direction === 'child' ? d.parent_work_item_id : d.child_work_item_id;
            return (
              <tr key={d.delegation_id} data-delegation={d.delegation_id} data-direction={d.direction}>
                <td>{d.direction === 'child' ? 'to child' : 'from parent'}</td>
                <td>
                  <a href={href.agent(other)}>{other}</a>
                </td>
                <td>
                  {d.label}
                  {item && (
                    <div class="small muted">
                      <a href={href.workItem(agentId, item)}>{item}</a>
                    </div>
                  )}
                </td>
                <td>
                  <Badge value={d.state} />
                  {d.flagged && <div class="small warn">flagged: {words(d.flag ?? '')}</div>}
                </td>
                <td>{d.result_summary ?? (d.reason ? words(d.reason) : <span class="muted">—</span>)}</td>
                <td>
                  <Time iso={d.delegated_at} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
