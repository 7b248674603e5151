import { Command, Query } from '@nestjs/cqrs';
import type { ListReply, TaskListQuery, TaskReply, TaskStatus, TaskView, WaitPolicy } from '@app/domain';
import type { CommandEnvelope, WithRevision } from '../agents/agent-command.service';

export interface CreateTaskInput {
  /** Caller-supplied, else generated from the idempotency key. */
  task_id?: string;
  kind: string;
  wait_policy?: WaitPolicy;
  work_item_id?: string;
  summary?: string;
  /** The lease; default: TASK_EXPECTED_DURATIONS for the kind (or `*`), else no lease. */
  expected_duration_ms?: number;
}

export class CreateTaskCommand extends Command<WithRevision<TaskReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly input: CreateTaskInput,
  ) {
    super();
  }
}

/** Monotonic: a stale status is answered with a warning and changes nothing. */
export class UpdateTaskStatusCommand extends Command<WithRevision<TaskReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly taskId: string,
    readonly status: TaskStatus,
    readonly detail?: string,
  ) {
    super();
  }
}

/** The executor's heartbeat: renews the task's lease from now. */
export class TaskHeartbeatCommand extends Command<WithRevision<TaskReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly taskId: string,
    readonly expectedDurationMs?: number,
  ) {
    super();
  }
}

/** `now`: the reader's clock, against which `overdue` is computed. */
export class ListTasksQuery extends Query<ListReply<TaskView>> {
  constructor(
    readonly agentId: string,
    readonly query: TaskListQuery,
  ) {
    super();
  }
}
