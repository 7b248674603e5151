-- A poison event parks its agent only (docs/decisions/0015-poison-parks-its-agent.md). The
-- checkpoint moves past it; the agent is parked from the letter's stream revision on, and its
-- later events are held (they stay in the store: a skip or a retry re-reads the agent's stream
-- from that revision up to the checkpoint). Written in the batch's transaction, under the
-- checkpoint row's lock, like the rows.
CREATE TABLE IF NOT EXISTS projection_parked_agents (
  projection      text NOT NULL,
  agent_id        text NOT NULL,
  stream_id       text NOT NULL,
  letter_position bigint NOT NULL,
  from_revision   bigint NOT NULL,
  parked_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, agent_id)
);

-- How a letter was resolved: 'applied' (a retry, or a runner that could read it) or 'skipped'
-- (an operator's decision: its rows are never written, a rebuild skips it again), by whom, why.
ALTER TABLE projection_dead_letters ADD COLUMN IF NOT EXISTS resolution text;
ALTER TABLE projection_dead_letters ADD COLUMN IF NOT EXISTS resolved_by text;
ALTER TABLE projection_dead_letters ADD COLUMN IF NOT EXISTS resolution_reason text;

-- The audit of every skip and retry an operator asked for (a failed retry included).
CREATE TABLE IF NOT EXISTS projection_dead_letter_actions (
  id         bigserial PRIMARY KEY,
  projection text NOT NULL,
  position   bigint NOT NULL,
  action     text NOT NULL,
  actor      text NOT NULL,
  reason     text,
  outcome    text NOT NULL,
  error      text,
  at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS projection_dead_letter_actions_letter ON projection_dead_letter_actions (projection, position);
