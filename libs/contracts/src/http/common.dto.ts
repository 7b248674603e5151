import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches, ValidateBy } from 'class-validator';
import { ID_PATTERN } from '@app/domain';

const REVISION = /^(0|[1-9]\d{0,18})$/;

/** A non-negative integer revision, as a JSON number (safe integer) or a decimal string (bigint edges). */
export const IsRevision = () =>
  ValidateBy({
    name: 'isRevision',
    validator: {
      validate: (value: unknown) =>
        (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ||
        (typeof value === 'string' && REVISION.test(value) && BigInt(value) <= 9223372036854775807n),
      defaultMessage: () => '$property must be a non-negative integer (number or decimal string)',
    },
  });

/** Every command body may carry the caller's optimistic check on the agent stream revision. */
export class ExpectedRevisionDto {
  @ApiPropertyOptional({
    description: 'agent stream revision; 409 with details.current_revision on mismatch',
    oneOf: [
      { type: 'integer', minimum: 0 },
      { type: 'string', pattern: '^(0|[1-9][0-9]{0,18})$' },
    ],
  })
  @IsOptional()
  @IsRevision()
  expected_revision?: number | string;
}

export class RegisterAgentDto {
  @ApiProperty({ pattern: ID_PATTERN.source })
  @Matches(ID_PATTERN, { message: `agent_id must match ${ID_PATTERN.source}` })
  agent_id!: string;
}
