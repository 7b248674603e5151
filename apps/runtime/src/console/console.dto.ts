import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

const INTEGER = /^-?\d{1,6}$/;

export class ConsoleListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'clamped to 1..500' })
  @IsOptional()
  @Matches(INTEGER, { message: 'limit must be an integer' })
  limit?: string;
}

export class BoardQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'items shown per candidate class, clamped to 1..100',
  })
  @IsOptional()
  @Matches(INTEGER, { message: 'per_class must be an integer' })
  per_class?: string;
}

export class HistoryQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    default: 200,
    description: 'the newest N matching events, clamped to 1..1000',
  })
  @IsOptional()
  @Matches(INTEGER, { message: 'limit must be an integer' })
  limit?: string;
}

export const optionalInt = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);
