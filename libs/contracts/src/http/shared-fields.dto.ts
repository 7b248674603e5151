import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches, ValidateBy } from 'class-validator';

/** docs/api.md: a message body (and a trigger payload, a wake hint body) is a string or a JSON object. */
export const IsMessageBody = () =>
  ValidateBy({
    name: 'isMessageBody',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value)),
      defaultMessage: () => '$property must be a string or a JSON object',
    },
  });

export const MESSAGE_BODY_SCHEMA = { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] };

/** `limit` of every list route: an integer, clamped to 1..100 by the query (default 20). */
export class LimitQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'clamped to 1..100' })
  @IsOptional()
  @Matches(/^-?\d{1,6}$/, { message: 'limit must be an integer' })
  limit?: string;
}

export function parseLimit(limit: string | undefined): number | undefined {
  return limit === undefined ? undefined : Number(limit);
}
