-- Snapshots are a cache of folded agent state, rebuildable from events; never a source of truth.
CREATE TABLE IF NOT EXISTS agent_snapshots (
  agent_id      text PRIMARY KEY,
  revision      bigint NOT NULL,
  state_version integer NOT NULL,
  state         jsonb NOT NULL,
  commands      jsonb NOT NULL,
  taken_at      timestamptz NOT NULL DEFAULT now()
);
