import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public, CallbackCommand } from '@app/application';
import { CallbackDto, ApiErrors, ApiReply } from '@app/contracts';

/**
 * The capability form of a trigger, for external systems holding no API token: the token in the
 * path is the only credential. Anything wrong with it is the same 404.
 * (A token is ~150 characters: the Fastify adapter allows path parameters up to 600.)
 */
@ApiTags('waiting-plane')
@Controller('v1/callbacks')
export class CallbacksController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post(':callback_token')
  @HttpCode(200)
  @ApiParam({ name: 'callback_token', description: 'the callback token returned once by WaitFor' })
  @ApiOperation({
    summary: 'Trigger the waiting intent of a callback token (no API token); a repeated event_id appends nothing',
  })
  @ApiReply(200, 'CallbackReply', 'a repeated event_id (else Idempotency-Key) appends nothing')
  @ApiErrors({ 404: 'not_found: a malformed, unknown, tampered, cancelled or resolved token (all alike)' })
  callback(
    @Param('callback_token') token: string,
    @Body() body: CallbackDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ) {
    return this.commands.execute(new CallbackCommand(token, body, idempotencyKey));
  }
}
