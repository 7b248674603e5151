-- A snapshot keeps the state's JSON text as the runtime wrote it. jsonb reorders object keys
-- (shortest first), and the order of an agent's records is their insertion order, part of its
-- state: a state loaded from a jsonb snapshot iterated its records in another order than the
-- same state folded from the stream. Snapshots are a cache: the old ones are dropped, not converted.
DELETE FROM agent_snapshots;
ALTER TABLE agent_snapshots ALTER COLUMN state TYPE json USING state::text::json;
