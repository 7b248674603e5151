import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class ActivationDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1000,
    maximum: 3_600_000,
    default: 60_000,
    description: 'lease of a started turn; renewed by heartbeats',
  })
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  lease_ttl_ms?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 1_000_000,
    default: 4096,
    description: 'token budget of the returned context projection',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  context_budget?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 60_000,
    default: 0,
    description:
      'long poll: when the decision opens no turn, wait up to this many ms for an event of the agent or its next ' +
      'deadline and step again; answers the first step that opens a turn, else the last decision (no `turn`). ' +
      '0: one step',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60_000)
  wait_ms?: number;
}
