-- Read models of the scheduler (docs/decisions/0006): the scheduler projection of each agent, every
-- recorded decision, briefs and delivery summaries. `view` holds the reply body; the other columns
-- serve WHERE/ORDER BY (and operators' ad-hoc SQL: which agents are due, which are mid-turn).

-- One row per agent: schedulerProjection(state, now) with now = the event's recorded_at, and
-- next_due_at = nextDueAt(state) (the next instant time alone changes the agent's decision).
CREATE TABLE IF NOT EXISTS scheduler_state (
  agent_id             text PRIMARY KEY,
  revision             bigint NOT NULL,
  projected_at         timestamptz NOT NULL,
  posture              text NOT NULL,
  current_work_item_id text,
  open_turn_id         text,
  queued_messages      integer NOT NULL,
  open_work_items      integer NOT NULL,
  active_intents       integer NOT NULL,
  scheduled_timers     integer NOT NULL,
  next_due_at          timestamptz,
  view                 jsonb NOT NULL,
  last_position        bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS scheduler_state_next_due ON scheduler_state (next_due_at) WHERE next_due_at IS NOT NULL;

-- Every SchedulerDecisionRecorded, keyed by its stream revision.
CREATE TABLE IF NOT EXISTS decisions (
  agent_id      text NOT NULL,
  revision      bigint NOT NULL,
  kind          text NOT NULL,
  recorded_at   timestamptz NOT NULL,
  view          jsonb NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (agent_id, revision)
);

CREATE TABLE IF NOT EXISTS briefs (
  agent_id      text NOT NULL,
  id            text NOT NULL,
  kind          text NOT NULL,
  work_item_id  text,
  created_at    timestamptz NOT NULL,
  view          jsonb NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX IF NOT EXISTS briefs_agent_created ON briefs (agent_id, created_at DESC);

CREATE TABLE IF NOT EXISTS delivery_summaries (
  agent_id      text NOT NULL,
  id            text NOT NULL,
  work_item_id  text NOT NULL,
  created_at    timestamptz NOT NULL,
  view          jsonb NOT NULL,
  last_position bigint NOT NULL,
  PRIMARY KEY (agent_id, id)
);
CREATE INDEX IF NOT EXISTS delivery_summaries_agent_created ON delivery_summaries (agent_id, created_at DESC);
