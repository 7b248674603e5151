import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import {
  DELIVERY_MODES,
  type DeliveryMode,
  type MessageBody,
  WAIT_WAKES,
  WAITING_INTENT_LIST_STATUSES,
  type WaitWake,
} from '@app/domain';
import { ID_PATTERN } from '@app/domain';
import { ExpectedRevisionDto } from './common.dto';
import { IsMessageBody, LimitQueryDto, MESSAGE_BODY_SCHEMA } from './shared-fields.dto';

/** Shapes and types only: the domain decides lengths and every rule. */

export class WaitForDto extends ExpectedRevisionDto {
  @ApiProperty({ enum: WAIT_WAKES }) @IsIn(WAIT_WAKES) wake!: WaitWake;
  @ApiProperty({ maxLength: 2000, description: "becomes the item's blocked_by (work-item scope)" })
  @IsString()
  reason!: string;
  @ApiPropertyOptional({ description: 'task id (task_result, required); required for external' })
  @IsOptional()
  @IsString()
  resource?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() source?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() condition?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'required for (and only for) wake: timer' })
  @IsOptional()
  @IsString()
  fire_at?: string;
  @ApiPropertyOptional({ enum: DELIVERY_MODES, default: 'wake_hint' })
  @IsOptional()
  @IsIn(DELIVERY_MODES)
  delivery_mode?: DeliveryMode;
}

/** The callback capability's body: the trigger without expected_revision (its holder knows no revision). */
export class CallbackDto {
  @ApiProperty({ maxLength: 200 }) @IsString() source!: string;
  @ApiPropertyOptional({
    ...MESSAGE_BODY_SCHEMA,
    description: 'delivered as the wake hint body or the callback_event body',
  })
  @IsOptional()
  @IsMessageBody()
  payload?: MessageBody;
  @ApiPropertyOptional({ maxLength: 200, description: "the sender's event id: a redelivered callback appends nothing" })
  @IsOptional()
  @IsString()
  event_id?: string;
}

export class TriggerWaitingIntentDto extends IntersectionType(CallbackDto, ExpectedRevisionDto) {}

export class CancelWaitingIntentDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({ maxLength: 2000 }) @IsOptional() @IsString() note?: string;
}

export class ListWaitingIntentsQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: WAITING_INTENT_LIST_STATUSES, default: 'all' })
  @IsOptional()
  @IsIn(WAITING_INTENT_LIST_STATUSES)
  status?: (typeof WAITING_INTENT_LIST_STATUSES)[number];
  @ApiPropertyOptional({ pattern: ID_PATTERN.source }) @IsOptional() @Matches(ID_PATTERN) work_item_id?: string;
}

export class WakeHintDto extends ExpectedRevisionDto {
  @ApiProperty({ maxLength: 200 }) @IsString() source!: string;
  @ApiProperty({ maxLength: 2000 }) @IsString() reason!: string;
  @ApiPropertyOptional({ ...MESSAGE_BODY_SCHEMA, description: 'absent: a liveness-only hint' })
  @IsOptional()
  @IsMessageBody()
  body?: MessageBody;
}
