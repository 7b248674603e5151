-- Read models of the waiting plane (docs/decisions/0004): one row per record of an agent, written
-- by the generic record projector. `view` holds the reply body (never a callback token or its
-- hash); the other columns serve WHERE/ORDER BY of the list routes.
CREATE TABLE IF NOT EXISTS waiting_intents (
  agent_id      text NOT NULL,
  id            text NOT NULL,
  status        text NOT NULL,
  work_item_id  text,
  created_at    timestamptz NOT NULL,
  view          jsonb NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX IF NOT EXISTS waiting_intents_agent_created ON waiting_intents (agent_id, created_at DESC);

CREATE TABLE IF NOT EXISTS tasks (
  agent_id      text NOT NULL,
  id            text NOT NULL,
  status        text NOT NULL,
  terminal      boolean NOT NULL,
  work_item_id  text,
  created_at    timestamptz NOT NULL,
  view          jsonb NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX IF NOT EXISTS tasks_agent_created ON tasks (agent_id, created_at DESC);

CREATE TABLE IF NOT EXISTS timers (
  agent_id      text NOT NULL,
  id            text NOT NULL,
  status        text NOT NULL,
  fire_at       timestamptz NOT NULL,
  view          jsonb NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX IF NOT EXISTS timers_agent_fire_at ON timers (agent_id, fire_at);

-- priority_rank: interject 0 < next 1 < normal 2 < background 3; seq: arrival (FIFO within a band).
CREATE TABLE IF NOT EXISTS messages (
  agent_id      text NOT NULL,
  id            text NOT NULL,
  status        text NOT NULL,
  priority_rank smallint NOT NULL,
  seq           bigint NOT NULL,
  created_at    timestamptz NOT NULL,
  view          jsonb NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX IF NOT EXISTS messages_agent_status_order ON messages (agent_id, status, priority_rank, seq);
