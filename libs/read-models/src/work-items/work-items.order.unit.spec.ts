import { CANDIDATE_RANKING, QUEUED_KEYS, RECENCY_KEYS, type RankedClass } from '@app/domain';
import { CANDIDATE_ORDER, candidateOrderBy, orderByKeys, RECENCY_ORDER } from './work-items.order';

describe("the ORDER BY rendered from the domain's candidate ranking", () => {
  it("orders by the class's place, each class's own keys, then id byte-wise", () => {
    expect(CANDIDATE_ORDER).toBe(candidateOrderBy(CANDIDATE_RANKING));
    expect(CANDIDATE_ORDER.split(',\n  ')).toEqual([
      "CASE candidate_class WHEN 'current_runnable' THEN 0 WHEN 'triggered_blocked' THEN 1 WHEN 'queued_runnable' THEN 2 WHEN 'waiting_for_operator' THEN 3 WHEN 'blocked' THEN 4 WHEN 'completed_recent' THEN 5 END ASC",
      "CASE WHEN candidate_class IN ('current_runnable', 'waiting_for_operator', 'blocked', 'completed_recent') THEN updated_at END DESC",
      "CASE WHEN candidate_class = 'triggered_blocked' THEN last_triggered_at END DESC NULLS LAST",
      "CASE WHEN candidate_class = 'triggered_blocked' THEN updated_at END DESC",
      "CASE WHEN candidate_class = 'queued_runnable' THEN updated_at END ASC",
      "CASE WHEN candidate_class = 'queued_runnable' THEN created_at END ASC",
      'id COLLATE "C" ASC',
    ]);
  });

  it('renders the recency order of the other lists', () => {
    expect(RECENCY_ORDER).toBe('updated_at DESC, id COLLATE "C" ASC');
  });

  it('keeps a key inside its class when not every class ends with it', () => {
    const ranking: RankedClass[] = [
      { class: 'queued_runnable', keys: QUEUED_KEYS },
      { class: 'blocked', keys: RECENCY_KEYS.slice(0, 1) },
    ];
    expect(candidateOrderBy(ranking).split(',\n  ').slice(1)).toEqual([
      "CASE WHEN candidate_class = 'queued_runnable' THEN updated_at END ASC",
      "CASE WHEN candidate_class = 'queued_runnable' THEN created_at END ASC",
      'CASE WHEN candidate_class = \'queued_runnable\' THEN id END COLLATE "C" ASC',
      "CASE WHEN candidate_class = 'blocked' THEN updated_at END DESC",
    ]);
    expect(orderByKeys(QUEUED_KEYS)).toBe('updated_at ASC, created_at ASC, id COLLATE "C" ASC');
  });
});
