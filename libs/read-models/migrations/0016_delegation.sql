-- Spawned agents and their parents (issue 17, docs/decisions/0031-delegation-hand-off.md): one
-- row per AgentSpawned. A token scoped to a parent also covers the private children it spawned;
-- every API process keeps this table's private_child rows in memory for its authorizer.
CREATE TABLE IF NOT EXISTS agent_parents (
  agent_id        text PRIMARY KEY,
  parent_agent_id text NOT NULL,
  workspace_mode  text NOT NULL,
  last_position   bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_parents_position ON agent_parents (last_position);

-- The hand-off process manager's checkpoint (scheduler role): the store position up to which it
-- has settled every delegation event. Its steps are idempotent, so resuming from an older
-- position after a crash (or a second runner) only repeats no-ops.
CREATE TABLE IF NOT EXISTS delegation_handoff_checkpoint (
  name       text PRIMARY KEY,
  position   bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
