import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { TERMINAL_KINDS, type TerminalKind } from '@app/domain';
import { ID_PATTERN } from '@app/domain';
import { ExpectedRevisionDto } from './common.dto';

// Shapes and types only: the domain decides ranges, lengths and every rule.

export class HeartbeatDto extends ExpectedRevisionDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1000,
    maximum: 3_600_000,
    description: "the renewed lease, counted from now (default: the turn's current lease_ttl_ms)",
  })
  @IsOptional()
  @IsInt()
  lease_ttl_ms?: number;
}

export class ToolCallDto {
  @ApiProperty({ pattern: ID_PATTERN.source }) @IsString() @Matches(ID_PATTERN) tool_call_id!: string;
  @ApiProperty({ maxLength: 200 }) @IsString() name!: string;
}

export class RecordRoundDto extends ExpectedRevisionDto {
  @ApiProperty({ pattern: ID_PATTERN.source, description: 'unique per agent; tool commands of the round carry it' })
  @IsString()
  @Matches(ID_PATTERN)
  round_id!: string;
  @ApiPropertyOptional({
    description:
      'the assistant text of the round (trimmed); promoted as the completion report when it completes the focus',
  })
  @IsOptional()
  @IsString()
  text?: string;
  @ApiPropertyOptional({
    type: [ToolCallDto],
    maxItems: 100,
    description: 'recorded before the tools run; facts, never re-executed',
  })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ToolCallDto)
  tool_calls?: ToolCallDto[];
}

export class CloseRoundDto extends ExpectedRevisionDto {}

export class TurnTerminalDto extends ExpectedRevisionDto {
  @ApiProperty({ enum: TERMINAL_KINDS }) @IsIn(TERMINAL_KINDS) terminal_kind!: TerminalKind;
  @ApiPropertyOptional({
    description: 'the final assistant text: the result brief of a completed turn (unless a report was promoted)',
  })
  @IsOptional()
  @IsString()
  last_assistant_message?: string;
}
