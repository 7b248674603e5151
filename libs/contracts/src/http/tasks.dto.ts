import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches } from 'class-validator';
import {
  TASK_LIST_FILTERS,
  TASK_STATUSES,
  type TaskListFilter,
  type TaskStatus,
  WAIT_POLICIES,
  type WaitPolicy,
} from '@app/domain';
import { ID_PATTERN } from '@app/domain';
import { ExpectedRevisionDto } from './common.dto';
import { LimitQueryDto } from './shared-fields.dto';

export class CreateTaskDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({ pattern: ID_PATTERN.source }) @IsOptional() @IsString() @Matches(ID_PATTERN) task_id?: string;
  @ApiProperty({ maxLength: 100 }) @IsString() kind!: string;
  @ApiProperty({ enum: WAIT_POLICIES, description: 'task presence alone never makes the agent wait' })
  @IsIn(WAIT_POLICIES)
  wait_policy!: WaitPolicy;
  @ApiPropertyOptional({ pattern: ID_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(ID_PATTERN)
  work_item_id?: string;
  @ApiPropertyOptional({ maxLength: 2000 }) @IsOptional() @IsString() summary?: string;
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1000,
    maximum: 604_800_000,
    description: 'the lease, renewed by heartbeats (default: TASK_EXPECTED_DURATIONS for the kind, else none)',
  })
  @IsOptional()
  @IsInt()
  expected_duration_ms?: number;
}

export class TaskHeartbeatDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1000,
    maximum: 604_800_000,
    description: "the renewed lease, counted from now (default: the task's expected_duration_ms)",
  })
  @IsOptional()
  @IsInt()
  expected_duration_ms?: number;
}

export class UpdateTaskStatusDto extends ExpectedRevisionDto {
  @ApiProperty({ enum: TASK_STATUSES, description: 'only moves forward; a stale status is ignored with a warning' })
  @IsIn(TASK_STATUSES)
  status!: TaskStatus;
  @ApiPropertyOptional({ maxLength: 4000 }) @IsOptional() @IsString() detail?: string;
}

export class ListTasksQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: TASK_LIST_FILTERS, default: 'all' })
  @IsOptional()
  @IsIn(TASK_LIST_FILTERS)
  filter?: TaskListFilter;
  @ApiPropertyOptional({ pattern: ID_PATTERN.source }) @IsOptional() @Matches(ID_PATTERN) work_item_id?: string;
}
