import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches } from 'class-validator';
import { TIMER_LIST_STATUSES, type TimerStatus } from '@app/domain';
import { ID_PATTERN } from '@app/domain';
import { ExpectedRevisionDto } from './common.dto';
import { LimitQueryDto } from './shared-fields.dto';

export class CreateTimerDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'exactly one of fire_at and duration_ms' })
  @IsOptional()
  @IsString()
  fire_at?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0 }) @IsOptional() @IsInt() duration_ms?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1000, description: 're-arms after each fire' })
  @IsOptional()
  @IsInt()
  interval_ms?: number;
  @ApiPropertyOptional({ pattern: ID_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(ID_PATTERN)
  work_item_id?: string;
  @ApiPropertyOptional({ maxLength: 2000, description: 'body of the timer_tick' })
  @IsOptional()
  @IsString()
  resume_text?: string;
}

export class ListTimersQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: TIMER_LIST_STATUSES, default: 'all' })
  @IsOptional()
  @IsIn(TIMER_LIST_STATUSES)
  status?: TimerStatus | 'all';
}
