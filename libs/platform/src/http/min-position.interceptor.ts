import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  Module,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, type Observable, switchMap } from 'rxjs';
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
 */
@Injectable()
export class MinPositionInterceptor implements NestInterceptor {
  constructor(
    @Inject(READ_YOUR_WRITES) private readonly readYourWrites: ReadYourWrites,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method !== 'GET' || !/^\/v1(\/|\?|$)/.test(request.url)) return next.handle();
    const query = request.query as Record<string, unknown> | null | undefined;
    if (!query || typeof query !== 'object' || !Object.prototype.hasOwnProperty.call(query, 'min_position'))
      return next.handle();
    const raw = query.min_position;
    delete query.min_position;
    const position = parseMinPosition(raw);
    const targets = [context.getHandler(), context.getClass()];
    if (position === null || isStoreRead((key) => this.reflector.getAllAndOverride(key, targets))) return next.handle();
    const agentId = (request.params as Record<string, unknown> | undefined)?.agent_id;
    // A malformed id waits for nothing: the route's pipe refuses it (400).
    if (agentId !== undefined && (typeof agentId !== 'string' || !ID_PATTERN.test(agentId))) return next.handle();
    return from(this.readYourWrites.reach(agentId ?? null, position)).pipe(switchMap(() => next.handle()));
  }
}

/** The API role's read-your-writes over HTTP: the global MinPositionInterceptor and READ_YOUR_WRITES. */
@Module({
  imports: [ReadYourWritesModule],
  providers: [{ provide: APP_INTERCEPTOR, useClass: MinPositionInterceptor }],
  exports: [ReadYourWritesModule],
})
export class MinPositionHttpModule {}
