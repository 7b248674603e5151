-- One checkpoint per projection runner, written in the same transaction as the rows it covers.
-- position -1 means nothing applied yet.
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  projection text PRIMARY KEY,
  position   bigint NOT NULL DEFAULT -1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
