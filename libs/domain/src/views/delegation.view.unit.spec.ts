import type { DelegationRecord } from '../delegation/delegation.state';
import { delegationFlag, toDelegationView } from './delegation.view';

// docs/domain-contract.md §11, the list: both sides merged, and the flag of a missing counterpart.

const T = '2026-01-01T00:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T) + ms).toISOString();

const record = (role: DelegationRecord['role'], fields: Partial<DelegationRecord> = {}): DelegationRecord => ({
  delegation_id: 'dlg-1',
  role,
  parent_agent_id: 'parent-1',
  parent_work_item_id: 'w-parent',
  child_agent_id: 'child-1',
  child_work_item_id: null,
  state: 'delegated',
  result_summary: null,
  reason: null,
  task_id: 'dlg-1',
  label: 'label',
  message_id: 'm-d',
  delegated_at: T,
  ended_at: null,
  ...fields,
});

describe('the flag of a delegation', () => {
  it('is counterpart_missing once the other stream has had no record of it for longer than the delay', () => {
    expect(delegationFlag(record('parent'), null, later(29_999), 30_000)).toBeNull();
    expect(delegationFlag(record('parent'), null, later(30_000), 30_000)).toBe('counterpart_missing');
  });

  it('is completion_missing once one side ended it and the other has not, for longer than the delay', () => {
    const reported = record('child', { state: 'completed', ended_at: later(1000) });
    expect(delegationFlag(record('parent'), reported, later(30_999), 30_000)).toBeNull();
    expect(delegationFlag(record('parent'), reported, later(31_000), 30_000)).toBe('completion_missing');
    expect(delegationFlag(reported, record('parent'), later(31_000), 30_000)).toBe('completion_missing');
  });

  it('is absent when both sides agree, ended or not', () => {
    expect(delegationFlag(record('parent'), record('child'), later(90_000), 30_000)).toBeNull();
    const ended = { state: 'completed' as const, ended_at: T };
    expect(delegationFlag(record('parent', ended), record('child', ended), later(90_000), 30_000)).toBeNull();
  });
});

describe('the view of a delegation', () => {
  it('merges both sides: the further along state, the child item and report, the direction of this side', () => {
    const child = record('child', {
      child_work_item_id: 'w-child',
      state: 'completed',
      result_summary: 'done',
      ended_at: T,
    });
    expect(toDelegationView(record('parent'), child, T, 30_000)).toMatchObject({
      direction: 'child',
      state: 'completed',
      counterpart_state: 'completed',
      child_work_item_id: 'w-child',
      result_summary: 'done',
      flagged: false,
    });
    expect(toDelegationView(child, record('parent'), T, 30_000)).toMatchObject({
      direction: 'parent',
      state: 'completed',
      counterpart_state: 'delegated',
    });
  });
});
