import { Controller, Get, Module, Query } from '@nestjs/common';
import { CqrsModule, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiReply } from '@app/contracts';
import { type Caller, CurrentCaller, ReadRoles } from '@app/application';
import { ApiError } from '@app/core';
import { ReadModelsModule } from '@app/read-models';
import { optionalInt } from '../console/console.dto';
import { StrandedQueryDto } from './stranded.dto';
import { ListStrandedHandler, ListStrandedQuery } from './stranded.query';

/** Stranded work across the caller's agents (ADR 0036): a scoped token sees its own agents only. */
@ApiTags('console')
@ApiBearerAuth()
@Controller('v1')
export class StrandedController {
  constructor(private readonly queries: QueryBus) {}

  @ReadRoles()
  @Get('stranded')
  @ApiOperation({
    summary:
      "Stranded work across this token's agents (admin: all) at the server clock: each condition with its records, evidence, stranded_at and age, oldest first",
  })
  @ApiReply(200, 'StrandedList', 'oldest stranded first')
  @ApiErrors({ 400: 'validation_failed: an unknown kind or a limit that is not an integer' })
  list(@CurrentCaller() caller: Caller | null, @Query() query: StrandedQueryDto) {
    if (!caller) throw new ApiError('unauthorized', 'a bearer token is required');
    const scope = caller.admin ? ({ all: true } as const) : { all: false as const, agent_ids: caller.agents };
    return this.queries.execute(new ListStrandedQuery(scope, query.kind, optionalInt(query.limit)));
  }
}

/** `GET /v1/stranded` (the queries come from the ReadModelsModule). */
@Module({
  imports: [CqrsModule, ReadModelsModule],
  controllers: [StrandedController],
  providers: [ListStrandedHandler],
})
export class StrandedHttpModule {}
