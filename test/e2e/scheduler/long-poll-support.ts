import { ActivationWaiters } from '@app/application';
import { eventually } from '@app/event-store/testing';
import type { TestApp } from '../../support/app';

/** The long-poll activations waiting in this app now (all agents). */
export const waitersIn = (app: TestApp): number => app.runtime.app.get(ActivationWaiters).size();

/** Resolves once `count` activations wait in this app (the request reached its wait). */
export const waiting = (app: TestApp, count: number, timeoutMs = 10_000) =>
  eventually(`${count} waiting activations`, () => waitersIn(app), (n) => n === count, { timeoutMs });

/** A request and how long it took, in ms of wall time. */
export async function timed<T>(request: Promise<T>, startedAt = Date.now()): Promise<T & { elapsed: number }> {
  const reply = await request;
  return Object.assign(reply as object, { elapsed: Date.now() - startedAt }) as T & { elapsed: number };
}
