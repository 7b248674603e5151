import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { STRANDED_KINDS, type StrandedKind } from '@app/domain';

export class StrandedQueryDto {
  @ApiPropertyOptional({ enum: STRANDED_KINDS, description: 'only this condition' })
  @IsOptional()
  @IsIn(STRANDED_KINDS, { message: `kind must be one of ${STRANDED_KINDS.join(', ')}` })
  kind?: StrandedKind;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'clamped to 1..500' })
  @IsOptional()
  @Matches(/^-?\d{1,6}$/, { message: 'limit must be an integer' })
  limit?: string;
}
