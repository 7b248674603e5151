import { join } from 'node:path';
import { Body, Controller, Get, HttpCode, Module, Param, Post, Put } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { AdminOnly, CurrentCaller, Public, type Caller } from '@app/application';
import { StoreUnavailableError, WrongExpectedRevisionError } from '@app/event-store';
import { GrpcService, GrpcUnary, type GrpcCallContext } from '@app/platform';
import { ApiError } from '@app/core';

/*
 * Test-only routes and gRPC service: they exist to exercise the platform (auth, limits,
 * error envelope) and are never shipped.
 */

class ItemDto {
  @IsString() text!: string;
}

class EchoDto {
  @IsString() name!: string;
  @IsOptional() @IsInt() @Min(0) expected_revision?: number;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => ItemDto) items?: ItemDto[];
}

/** What the probes throw, by name. */
export function failure(kind: string): Error {
  switch (kind) {
    case 'invariant':
      return Object.assign(new Error('a completed item can never become current'), {
        code: 'invariant_violated',
        details: { work_item_id: 'w-1' },
      });
    case 'not-found':
      return Object.assign(new Error('no such work item'), { code: 'not_found', details: {} });
    case 'revision':
      return new WrongExpectedRevisionError('agent-agent-a', '3', 7n);
    case 'store':
      return new StoreUnavailableError('esdb://10.1.2.3:2113 refused');
    case 'contention':
      return new ApiError('contention', 'agent agent-a is being written by other writers', {
        agent_id: 'agent-a',
        attempts: 11,
        retry_after_seconds: 1,
      });
    default:
      return new Error('SELECT password FROM users: syntax error at /srv/app/secret.ts:12');
  }
}

@Controller('v1/agents/:agent_id')
class ProbeController {
  @Get('ping')
  ping(@Param('agent_id') agentId: string, @CurrentCaller() caller: Caller) {
    return { agent_id: agentId, caller: caller.tokenName, revision: 9007199254740993n };
  }

  @Post('echo')
  @HttpCode(200)
  echo(@Body() body: EchoDto) {
    return { echoed: body, is_dto: body instanceof EchoDto };
  }

  @Put('plan')
  plan(@Body() body: string) {
    return { kind: typeof body, length: body.length };
  }

  @Post('fail/:kind')
  fail(@Param('kind') kind: string): never {
    throw failure(kind);
  }
}

@Controller('v1/admin-probe')
@AdminOnly()
class AdminProbeController {
  @Get()
  admin(@CurrentCaller() caller: Caller) {
    return { caller: caller.tokenName };
  }
}

@Controller('probe-callbacks')
class PublicProbeController {
  @Post(':token')
  @Public()
  @HttpCode(202)
  callback(@Param('token') token: string, @CurrentCaller() caller: Caller | null) {
    return { accepted: token.length > 0, caller: caller?.tokenName ?? null };
  }
}

interface PingRequest {
  agent_id: string;
  payload: string;
}

@GrpcService({ service: 'platform_test.v1.Probe', proto: join(__dirname, 'probe.proto') })
export class ProbeGrpcService {
  @GrpcUnary('Ping')
  ping(request: PingRequest, context: GrpcCallContext) {
    return { agent_id: request.agent_id, caller: context.caller?.tokenName ?? '', revision: 12345678901234567n };
  }

  @GrpcUnary('Fail')
  async fail(request: { kind: string }): Promise<never> {
    throw failure(request.kind);
  }

  @GrpcUnary('AdminPing', { adminOnly: true })
  adminPing(_request: PingRequest, context: GrpcCallContext) {
    return { agent_id: '', caller: context.caller?.tokenName ?? '', revision: '0' };
  }
}

@Module({ controllers: [ProbeController, AdminProbeController, PublicProbeController], providers: [ProbeGrpcService] })
export class ProbeModule {}
