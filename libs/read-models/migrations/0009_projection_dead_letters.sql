-- Poison events (docs/reliability.md): an event a projection runner cannot apply (a type this
-- version does not know, data its fold or projectors cannot read, a row the database refuses).
-- The runner never skips it: it records it here, stays at the checkpoint just before it
-- ("stalled at position"), and retries with a growing delay. A later successful apply past
-- the position (fixed code, a rebuild) sets resolved_at in the same transaction as the rows.
CREATE TABLE IF NOT EXISTS projection_dead_letters (
  projection      text NOT NULL,
  position        bigint NOT NULL,
  event_id        text NOT NULL,
  stream_id       text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type      text NOT NULL,
  error           text NOT NULL,
  attempts        integer NOT NULL DEFAULT 1,
  first_failed_at timestamptz NOT NULL DEFAULT now(),
  last_failed_at  timestamptz NOT NULL DEFAULT now(),
  resolved_at     timestamptz,
  PRIMARY KEY (projection, position)
);
CREATE INDEX IF NOT EXISTS projection_dead_letters_open ON projection_dead_letters (projection, position) WHERE resolved_at IS NULL;
