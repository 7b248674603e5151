import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The body of POST /v1/admin/projections/{name}/dead-letters/{position}/skip and /retry. */
export class DeadLetterActionDto {
  @ApiPropertyOptional({
    maxLength: 500,
    description: 'why (required for a skip, recorded in the audit with the token name and the time)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
