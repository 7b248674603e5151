import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { type CommandEnvelope, REFUSAL_LOG, type RefusalLog, refusalOf } from '@app/application';
import { CLOCK, type Clock, RUNTIME_METRICS } from '@app/core';
import { classifyError } from '../errors/classify-error';
import type { PrometheusMetrics } from './prometheus-metrics';

/** The operation a command class names: `CreateWorkItemCommand` -> `CreateWorkItem` (cached per class). */
const routes = new Map<unknown, string>();
export function routeOf(command: object): string {
  const type = command.constructor;
  let route = routes.get(type);
  if (route === undefined) routes.set(type, (route = type.name.replace(/Command$/, '') || 'unknown'));
  return route;
}

const envelopeOf = (command: object): CommandEnvelope | undefined => {
  const envelope = (command as { envelope?: CommandEnvelope }).envelope;
  return typeof envelope === 'object' && envelope !== null ? envelope : undefined;
};

/** A reply that says it changed nothing (a control that was already in effect): written to the audit as `no_op`. */
const isNoOp = (reply: unknown): boolean =>
  typeof reply === 'object' && reply !== null && (reply as { changed?: unknown }).changed === false;

/**
 * Every command of HTTP and gRPC passes through a CommandBus (the app has one per CqrsModule
 * instance: CqrsModule.forRoot's and the modules' own import; each is observed): its latency by
 * command and outcome, and its refusals (ADR 0032). The success path costs a clock read and one histogram
 * observation; a refusal is counted and handed to the audit's bounded buffer (never awaited).
 */
@Injectable()
export class CommandMetrics implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(RUNTIME_METRICS) private readonly metrics: PrometheusMetrics,
    @Inject(REFUSAL_LOG) private readonly refusals: RefusalLog,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const buses = new Set<CommandBus>();
    for (const wrapper of this.discovery.getProviders())
      if (wrapper.instance instanceof CommandBus) buses.add(wrapper.instance);
    for (const bus of buses) {
      const execute = bus.execute.bind(bus) as (command: object, context?: unknown) => Promise<unknown>;
      const observed = (command: object, context?: unknown) => this.observe(command, execute(command, context));
      bus.execute = observed as CommandBus['execute'];
    }
  }

  async observe<R>(command: object, running: Promise<R>): Promise<R> {
    const started = performance.now();
    try {
      const reply = await running;
      this.metrics.commandObserved(routeOf(command), 'ok', (performance.now() - started) / 1000);
      if (isNoOp(reply)) this.refused(command, { code: 'no_op', reason: 'no_op', message: 'changed nothing' });
      return reply;
    } catch (error) {
      const classified = classifyError(error);
      this.metrics.commandObserved(routeOf(command), classified.code, (performance.now() - started) / 1000);
      const refusal = refusalOf(classified);
      if (refusal) this.refused(command, refusal);
      throw error;
    }
  }

  private refused(command: object, refusal: { code: string; reason: string; message: string }): void {
    const route = routeOf(command);
    this.metrics.refused(route, refusal.code, refusal.reason);
    const envelope = envelopeOf(command);
    this.refusals.record({
      actor: envelope?.caller.tokenName ?? (route === 'Callback' ? 'callback' : 'unknown'),
      route,
      agent_id: envelope?.agentId ?? null,
      ...refusal,
      at: this.clock.now().toISOString(),
    });
  }
}
