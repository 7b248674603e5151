import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { ID_PATTERN, WORKSPACE_MODES, type WorkspaceMode } from '@app/domain';
import { ExpectedRevisionDto } from './common.dto';

/** POST /v1/agents/{parent}/spawn (issue 17 item 1); `expected_revision` checks the parent's stream (private_child). */
export class SpawnAgentDto extends ExpectedRevisionDto {
  @ApiProperty({
    enum: WORKSPACE_MODES,
    description:
      'private_child: a delegation of the parent item to a new child, supervised by a child_agent task; ' +
      'public_named: an independent agent (no task, no delegation)',
  })
  @IsIn(WORKSPACE_MODES)
  workspace_mode!: WorkspaceMode;
  @ApiPropertyOptional({
    maxLength: 100_000,
    description:
      "required for private_child: the child's first (delegation) message; public_named: an optional bootstrap message",
  })
  @IsOptional()
  @IsString()
  initial_message?: string;
  @ApiPropertyOptional({
    pattern: ID_PATTERN.source,
    description: "the child's id (default: derived from the parent and the Idempotency-Key)",
  })
  @IsOptional()
  @IsString()
  @Matches(ID_PATTERN)
  agent_id?: string;
  @ApiPropertyOptional({ maxLength: 200, description: 'opaque, kept on the child for its host' })
  @IsOptional()
  @IsString()
  preset?: string;
  @ApiPropertyOptional({ maxLength: 200, description: 'opaque, kept on the child for its host' })
  @IsOptional()
  @IsString()
  template?: string;
  @ApiPropertyOptional({
    pattern: ID_PATTERN.source,
    description: "the parent's delegating item (default: its focus; without one: 400 work_item_required)",
  })
  @IsOptional()
  @IsString()
  @Matches(ID_PATTERN)
  work_item_id?: string;
}
