import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import {
  CONTROL_ACTIONS,
  type ControlAction,
  MESSAGE_KINDS,
  MESSAGE_PRIORITIES,
  type MessageBody,
  type MessageKind,
  type MessagePriority,
  type MessageStatus,
} from '@app/domain';
import { ID_PATTERN } from '@app/domain';
import { ExpectedRevisionDto } from './common.dto';
import { IsMessageBody, LimitQueryDto, MESSAGE_BODY_SCHEMA } from './shared-fields.dto';

/**
 * A caller's message. No `authority` (nor `trust`): the runtime sets it from the route and the
 * caller, so either field is an unknown field (400). Runtime-owned kinds are refused by the domain.
 */
export class EnqueueMessageDto extends ExpectedRevisionDto {
  @ApiProperty({
    enum: MESSAGE_KINDS,
    description:
      'operator_prompt (operator, admin), internal_followup (host, admin), webhook_event and channel_event (integration, admin); a role that may not send the kind is 403; control has no effect yet (400); system_tick, timer_tick, task_result and callback_event are runtime-owned (400)',
  })
  @IsIn(MESSAGE_KINDS)
  kind!: MessageKind;
  @ApiProperty(MESSAGE_BODY_SCHEMA) @IsMessageBody() body!: MessageBody;
  @ApiPropertyOptional({ enum: MESSAGE_PRIORITIES, default: 'normal' })
  @IsOptional()
  @IsIn(MESSAGE_PRIORITIES)
  priority?: MessagePriority;
  @ApiPropertyOptional({ maxLength: 200, default: 'api' }) @IsOptional() @IsString() origin?: string;
  @ApiPropertyOptional({ pattern: ID_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(ID_PATTERN)
  work_item_id?: string;
  @ApiPropertyOptional({ pattern: ID_PATTERN.source }) @IsOptional() @IsString() @Matches(ID_PATTERN) task_id?: string;
  @ApiPropertyOptional({ maxLength: 200 }) @IsOptional() @IsString() correlation_id?: string;
}

export const MESSAGE_LIST_STATUSES = [
  'queued',
  'dequeued',
  'processed',
  'interjected',
  'aborted',
  'dropped',
  'all',
] as const satisfies readonly (MessageStatus | 'all')[];

export class ListMessagesQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({
    enum: MESSAGE_LIST_STATUSES,
    default: 'queued',
    description: 'queued: in the order the scheduler takes them',
  })
  @IsOptional()
  @IsIn(MESSAGE_LIST_STATUSES)
  status?: (typeof MESSAGE_LIST_STATUSES)[number];
}

export class ControlDto extends ExpectedRevisionDto {
  @ApiProperty({ enum: CONTROL_ACTIONS }) @IsIn(CONTROL_ACTIONS) action!: ControlAction;
}
