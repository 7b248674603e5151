-- The work item view of API.md, one row per item, with the derived columns the list filters
-- and rankings need. `view` holds the full reply body; the columns are for WHERE/ORDER BY.
CREATE TABLE IF NOT EXISTS work_items (
  agent_id            text NOT NULL,
  id                  text NOT NULL,
  state               text NOT NULL,
  plan_status         text NOT NULL,
  readiness           text NOT NULL,
  scheduling_state    text NOT NULL,
  candidate_class     text NOT NULL,
  is_current          boolean NOT NULL,
  has_active_waits    boolean NOT NULL,
  has_triggered_waits boolean NOT NULL,
  last_triggered_at   timestamptz,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  view                jsonb NOT NULL,
  last_position       bigint NOT NULL,
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX IF NOT EXISTS work_items_agent_updated ON work_items (agent_id, updated_at DESC, id);
CREATE INDEX IF NOT EXISTS work_items_agent_readiness ON work_items (agent_id, readiness, updated_at);

-- The agent summary of GET /v1/agents/{agent_id}.
CREATE TABLE IF NOT EXISTS agents (
  agent_id             text PRIMARY KEY,
  posture              text NOT NULL,
  current_work_item_id text,
  revision             bigint NOT NULL,
  registered_at        timestamptz,
  summary              jsonb NOT NULL,
  last_position        bigint NOT NULL
);
