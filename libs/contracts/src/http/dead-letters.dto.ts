import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ID_PATTERN } from '@app/domain';
import { LimitQueryDto } from './shared-fields.dto';

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

/** The query of GET /v1/admin/refusals. */
export class ListRefusalsQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ pattern: ID_PATTERN.source, description: "only this agent's refusals" })
  @IsOptional()
  @Matches(ID_PATTERN, { message: `agent_id must match ${ID_PATTERN.source}` })
  agent_id?: string;
}
