import { type CanActivate, type ExecutionContext, Inject, Injectable, Module } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import {
  isStoreRead,
  parseMinPosition,
  READ_YOUR_WRITES,
  type ReadYourWrites,
  ReadYourWritesModule,
} from '@app/application';
import { ID_PATTERN } from '@app/domain';

/**
 * Read-your-writes for every HTTP read (GET under /v1, docs/api.md "Consistency of reads"): takes
 * `min_position` out of the query (so no route's query DTO has to know it, and its validation
 * never sees it), refuses a malformed one (400 `validation_failed`, `details.field`), and lets
 * the route run once the read models include that position for the agent in the path (the
 * checkpoints alone for a route across agents), else 503 `read_model_lagging` after the bound.
 * Runs after the auth guard (a refused caller never waits) and before the pipes. A route marked
 * StoreRead reads the store, which has every write already: it accepts and ignores the parameter.
 *
 * A guard, not an interceptor: a global interceptor makes Nest run every route, commands
 * included, through its rxjs interceptor chain (docs/decisions/0041). It is the global guard
 * registered after ApiAuthGuard (RuntimeModule imports AuthModule first); it refuses to run
 * before it, so an order that would let a refused caller wait fails loudly instead.
 */
@Injectable()
export class MinPositionGuard implements CanActivate {
  constructor(
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method !== 'GET' || !/^\/v1(\/|\?|$)/.test(request.url)) return true;
    const query = request.query as Record<string, unknown> | null | undefined;
    if (!query || typeof query !== 'object' || !Object.prototype.hasOwnProperty.call(query, 'min_position'))
      return true;
    if (request.caller === undefined) throw new Error('MinPositionGuard ran before the auth guard');
    const raw = query.min_position;
    delete query.min_position;
    const position = parseMinPosition(raw);
    const targets = [context.getHandler(), context.getClass()];
    if (position === null || isStoreRead((key) => this.reflector.getAllAndOverride(key, targets))) return true;
    const agentId = (request.params as Record<string, unknown> | undefined)?.agent_id;
    // A malformed id waits for nothing: the route's pipe refuses it (400).
    if (agentId !== undefined && (typeof agentId !== 'string' || !ID_PATTERN.test(agentId))) return true;
    await this.readYourWrites.reach(agentId ?? null, position);
    return true;
  }
}

/** The API role's read-your-writes over HTTP: the global MinPositionGuard and READ_YOUR_WRITES. */
@Module({
  imports: [ReadYourWritesModule],
  providers: [{ provide: APP_GUARD, useClass: MinPositionGuard }],
  exports: [ReadYourWritesModule],
})
export class MinPositionHttpModule {}
