import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { BRIEF_LIST_KINDS, type BriefKind } from '@app/domain';
import { ID_PATTERN } from '@app/domain';
import { LimitQueryDto } from './shared-fields.dto';

export class ContextQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 9_999_999,
    default: 4096,
    description: 'token budget (tokens = ceil(characters / 4)); sections are cut from the end',
  })
  @IsOptional()
  @Matches(/^\d{1,7}$/, { message: 'budget must be a non-negative integer' })
  budget?: string;
}

export class ListDecisionsQueryDto extends LimitQueryDto {}

export class ListBriefsQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: BRIEF_LIST_KINDS, default: 'all' }) @IsOptional() @IsIn(BRIEF_LIST_KINDS) kind?:
    BriefKind | 'all';
  @ApiPropertyOptional({ pattern: ID_PATTERN.source }) @IsOptional() @Matches(ID_PATTERN) work_item_id?: string;
}

export class ListDeliverySummariesQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ pattern: ID_PATTERN.source }) @IsOptional() @Matches(ID_PATTERN) work_item_id?: string;
}

export function parseBudget(budget: string | undefined): number | undefined {
  return budget === undefined ? undefined : Number(budget);
}
