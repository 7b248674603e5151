-- The scheduler's agenda (docs/decisions/0038-agenda-without-a-sweep.md): one row per agent, kept by
-- the projector from the domain's schedulerAgendaOf(state, recorded_at of its last event).
-- next_due_at: when time alone next changes the agent's decision (nextDueAt); undecided: the
-- scheduler has not yet rested on the agent's latest state. shard_key: FNV-1a-32 of the agent id
-- (the scheduler's shard is shard_key % SCHEDULER_SHARDS, so the row does not depend on that setting).
-- A starting scheduler reads only the undecided rows and those due within its horizon.
CREATE TABLE IF NOT EXISTS scheduler_agenda (
  agent_id      text PRIMARY KEY,
  shard_key     bigint NOT NULL,
  next_due_at   timestamptz,
  undecided     boolean NOT NULL,
  revision      bigint NOT NULL,
  last_position bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS scheduler_agenda_due ON scheduler_agenda (next_due_at, agent_id) WHERE next_due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS scheduler_agenda_undecided ON scheduler_agenda (agent_id) WHERE undecided;

-- A database that already had read models when this table came: the agents projected before it have
-- no row until their next event (or a rebuild). While this mark exists a starting scheduler also
-- reads the agents that have no row (and it removes the mark once there are none).
INSERT INTO runtime_meta (key, value)
SELECT 'scheduler_agenda_partial', 'agents projected before migration 0018 may have no scheduler_agenda row'
FROM projection_checkpoints WHERE projection = 'read_models' AND position >= 0
ON CONFLICT (key) DO NOTHING;
