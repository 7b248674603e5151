-- Runtime bookkeeping (the migrations runner keeps its own schema_migrations table).
-- `runtime_meta` marks the database as this runtime's and holds small process-level facts.
CREATE TABLE IF NOT EXISTS runtime_meta (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO runtime_meta (key, value) VALUES ('schema_owner', 'agent-runtime')
ON CONFLICT (key) DO NOTHING;
