-- Refusals leave a trace (issue 19, ADR 0032): a refused command, a trigger on a resolved or
-- cancelled intent and a no-op control write nothing to the agent's stream; this audit table
-- records who asked for what and why it was refused. Not a projection (a rebuild keeps it).
-- Written fire-and-forget in batches; bounded by REFUSALS_RETAIN_ROWS (the oldest rows are
-- pruned by id after each batch).
CREATE TABLE IF NOT EXISTS command_refusals (
  id       bigserial PRIMARY KEY,
  at       timestamptz NOT NULL,
  -- The token's printable name (`<grant>:<role>`, `admin-token`, `callback`), never the secret.
  actor    text NOT NULL,
  -- The operation (`CreateWorkItem`, `TriggerWaitingIntent`, `Control`...), the same over HTTP and gRPC.
  route    text NOT NULL,
  agent_id text,
  -- The wire error code (`not_found`, `conflict`...) or `no_op`, and its finer reason (details.reason / rule / status).
  code     text NOT NULL,
  reason   text NOT NULL,
  message  text NOT NULL
);
CREATE INDEX IF NOT EXISTS command_refusals_agent ON command_refusals (agent_id, id);
