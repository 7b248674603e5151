-- Every plan body, content-addressed (issue 14): the store all replicas share. The file under
-- AGENT_HOME stays the agent's working copy; events name a body by its hash, export carries the
-- bodies by hash and import restores them. Rows are only ever inserted (insert-if-absent before
-- the event that names the hash is appended), never updated or deleted.
CREATE TABLE IF NOT EXISTS plan_bodies (
  hash       text PRIMARY KEY CHECK (hash ~ '^sha256:[0-9a-f]{64}$'),
  body       bytea NOT NULL,
  size       integer NOT NULL CHECK (size = octet_length(body)),
  created_at timestamptz NOT NULL DEFAULT now()
);
