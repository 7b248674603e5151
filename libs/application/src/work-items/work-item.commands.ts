import { Command } from '@nestjs/cqrs';
import type {
  CompleteWorkItemReply,
  CreateWorkItemReply,
  PickWorkItemReply,
  PlanStatus,
  RegisterAgentReply,
  TodoItem,
  UpdateWorkItemReply,
} from '@app/domain';
import type { CommandEnvelope, WithRevision } from '../agents/agent-command.service';

// One command class per API command; the reply type travels with it.

export class RegisterAgentCommand extends Command<WithRevision<RegisterAgentReply>> {
  constructor(readonly envelope: CommandEnvelope) {
    super();
  }
}

export interface CreateWorkItemInput {
  work_item_id?: string;
  objective: string;
  plan_status?: PlanStatus;
  todo_list?: TodoItem[];
  plan?: string;
}

export class CreateWorkItemCommand extends Command<WithRevision<CreateWorkItemReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly input: CreateWorkItemInput,
  ) {
    super();
  }
}

export interface UpdateWorkItemInput {
  objective?: string;
  plan_status?: PlanStatus;
  todo_list?: TodoItem[];
  blocked_by?: string | null;
  recheck_at?: string | null;
}

export class UpdateWorkItemCommand extends Command<WithRevision<UpdateWorkItemReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly workItemId: string,
    readonly input: UpdateWorkItemInput,
  ) {
    super();
  }
}

export class PickWorkItemCommand extends Command<WithRevision<PickWorkItemReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly workItemId: string,
    readonly reason?: string,
  ) {
    super();
  }
}

export class CompleteWorkItemCommand extends Command<WithRevision<CompleteWorkItemReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly workItemId: string,
    readonly roundId?: string,
  ) {
    super();
  }
}

/** PUT plan: replaces the plan file's body and records the refreshed descriptor. */
export class ReplacePlanCommand extends Command<WithRevision<UpdateWorkItemReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly workItemId: string,
    readonly body: string,
  ) {
    super();
  }
}
