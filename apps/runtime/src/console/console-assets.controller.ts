import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@app/application';
import { ApiError } from '@app/core';
import { CONSOLE_SECURITY_HEADERS, type ConsoleAssets } from './console-assets';

export const CONSOLE_ASSETS = Symbol('CONSOLE_ASSETS');
const PREFIX = '/console';

/**
 * The operator console's static files at /console: public (the page holds no data; every
 * read it makes carries the operator's token). Served from disk here rather than through
 * @fastify/static, which does not load inside jest's module sandbox.
 */
@ApiExcludeController()
@Public()
@Controller('console')
export class ConsoleAssetsController {
  constructor(@Inject(CONSOLE_ASSETS) private readonly assets: ConsoleAssets) {}

  @Get()
  index(@Res() reply: FastifyReply): Promise<void> {
    return this.send(reply, '');
  }

  @Get('*')
  file(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const path = request.url.split('?')[0].slice(PREFIX.length + 1);
    return this.send(reply, path);
  }

  private async send(reply: FastifyReply, path: string): Promise<void> {
    const file = await this.assets.file(path);
    if (!file) {
      throw this.assets.built
        ? new ApiError('not_found', 'no such console file')
        : new ApiError('not_found', 'the console is not built: run `npm run build` (or `npm run build:console`)');
    }
    reply.headers({
      ...CONSOLE_SECURITY_HEADERS,
      'content-type': file.contentType,
      'cache-control': file.cacheControl,
    });
    await reply.send(file.body);
  }
}
