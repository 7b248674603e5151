-- Ownership of the replicated roles (docs/decisions/0035-ownership-and-fencing.md). A lease group
-- ('scheduler', 'projector') has a fixed number of shards; each shard's row names its owner (a
-- replica id), an epoch raised on every change of hands (the fencing token written into the
-- scheduler's event metadata) and when the lease lapses. Time is the database's now(): one clock
-- for every replica. A row whose expires_at has passed is free: any replica of the group may claim it.
CREATE TABLE IF NOT EXISTS ownership_leases (
  lease_group text NOT NULL,
  shard       integer NOT NULL,
  owner       text,
  epoch       bigint NOT NULL DEFAULT 0,
  expires_at  timestamptz NOT NULL DEFAULT '-infinity',
  PRIMARY KEY (lease_group, shard)
);

-- The live replicas of each group: each one's lease round refreshes its row, and the number of live
-- rows sets every replica's fair share (ceil(shards / live)). A replica that stops renewing
-- drops out after the TTL; a replica that stops cleanly deletes its row.
CREATE TABLE IF NOT EXISTS ownership_members (
  lease_group text NOT NULL,
  owner       text NOT NULL,
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (lease_group, owner)
);
