-- WorkItemsArchived (docs/decisions/0034-archive-never-forget.md): an archived item leaves the
-- agent's live state, not the read model. Its row stays, marked archived: `GET .../work-items/{w}`
-- still answers it, `?filter=archived` lists it (every other filter leaves it out), and its key
-- keeps the id reserved (CreateWorkItem checks the row before the live state).
ALTER TABLE work_items ADD COLUMN IF NOT EXISTS archived boolean NOT NULL DEFAULT false;

-- The automatic policy (ARCHIVE_COMPLETED_AFTER) looks only at completed rows not archived yet.
CREATE INDEX IF NOT EXISTS work_items_completed_unarchived
  ON work_items (agent_id, updated_at) WHERE state = 'completed' AND NOT archived;
