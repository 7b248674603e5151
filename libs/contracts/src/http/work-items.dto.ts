import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsOptional, IsString, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { ID_PATTERN, WORK_ITEM_QUERY_FILTERS, type WorkItemQueryFilter } from '@app/domain';
import { ExpectedRevisionDto } from './common.dto';

/** Shapes and types only: the domain decides lengths and every rule (one place for rules). */
const PLAN_STATUSES = ['draft', 'ready', 'needs_input'];
const TODO_STATES = ['pending', 'in_progress', 'completed'];

export class TodoItemDto {
  @ApiProperty({ maxLength: 500 }) @IsString() text!: string;
  @ApiProperty({ enum: TODO_STATES }) @IsIn(TODO_STATES) state!: 'pending' | 'in_progress' | 'completed';
}

export class CreateWorkItemDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({ pattern: ID_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(ID_PATTERN)
  work_item_id?: string;
  @ApiProperty({ maxLength: 500 }) @IsString() objective!: string;
  @ApiPropertyOptional({ enum: PLAN_STATUSES }) @IsOptional() @IsIn(PLAN_STATUSES) plan_status?:
    'draft' | 'ready' | 'needs_input';
  @ApiPropertyOptional({ type: [TodoItemDto], maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TodoItemDto)
  todo_list?: TodoItemDto[];
  @ApiPropertyOptional({ description: 'seed text of the plan artifact file' }) @IsOptional() @IsString() plan?: string;
}

export class UpdateWorkItemDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({ maxLength: 500 }) @IsOptional() @IsString() objective?: string;
  @ApiPropertyOptional({ enum: PLAN_STATUSES }) @IsOptional() @IsIn(PLAN_STATUSES) plan_status?:
    'draft' | 'ready' | 'needs_input';
  @ApiPropertyOptional({ type: [TodoItemDto], maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TodoItemDto)
  todo_list?: TodoItemDto[];
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 2000,
    description: 'why the item is blocked; null clears the blocker',
  })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @IsString()
  blocked_by?: string | null;
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    format: 'date-time',
    description: 'RFC 3339: when a blocked item is looked at again; null clears it',
  })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @IsString()
  recheck_at?: string | null;
}

export class PickWorkItemDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({ description: 'required (warning only) when leaving a runnable focus' })
  @IsOptional()
  @IsString()
  reason?: string;
}

export class CompleteWorkItemDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({ pattern: ID_PATTERN.source }) @IsOptional() @IsString() @Matches(ID_PATTERN) round_id?: string;
}

export class ListWorkItemsQueryDto {
  @ApiPropertyOptional({
    enum: WORK_ITEM_QUERY_FILTERS,
    default: 'all',
    description:
      'archived: the items WorkItemsArchived took out of the live state (all and the others list live items only)',
  })
  @IsOptional()
  @IsIn([...WORK_ITEM_QUERY_FILTERS])
  filter?: WorkItemQueryFilter;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'clamped to 1..100' })
  @IsOptional()
  @Matches(/^-?\d{1,6}$/, { message: 'limit must be an integer' })
  limit?: string;
}
