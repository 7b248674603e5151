-- Stranded work (issue 19 item 4, docs/decisions/0036-stranded-work.md): one row per agent,
-- rewritten at each of its events, holding the stranding watches of its state (each with the
-- instant it counts from and the delay that applies) and its delegations' state as its
-- counterparts' watches read it. Nothing here depends on the clock or the thresholds: a query
-- compares `since + delay` with its own clock. `earliest_since` (the soonest `since`) is what the
-- query's index finds: only agents with a watch already begun are read.
CREATE TABLE IF NOT EXISTS stranded_work (
  agent_id       text PRIMARY KEY,
  watches        jsonb NOT NULL,
  delegations    jsonb NOT NULL,
  earliest_since timestamptz,
  last_position  bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS stranded_work_earliest_since ON stranded_work (earliest_since)
  WHERE earliest_since IS NOT NULL;
