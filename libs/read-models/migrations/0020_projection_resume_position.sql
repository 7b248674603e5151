-- A projection runner's resume point beyond its last event (ADR 0043): the last server checkpoint
-- of an EventStoreDB $all subscription whose preceding events the runner had applied. position
-- stays the last event applied (read-your-writes and rebuilds read it); the live subscription
-- starts after resume_position instead while position >= resume_covers (the position of the last
-- event handed out before the checkpoint), so a reset or rebuild that moved position back makes
-- it unused until the runner has applied those events again. NULL: none (the Postgres store sends none).
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS resume_position bigint;
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS resume_covers bigint;
