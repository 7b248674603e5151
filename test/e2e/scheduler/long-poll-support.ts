import { request as httpRequest } from 'node:http';
import { ActivationWaiters } from '@app/application';
import { eventually } from '@app/event-store/testing';
import type { TestApp } from '../../support/app';

/** The long-poll activations waiting in this app now (all agents). */
export const waitersIn = (app: TestApp): number => app.runtime.app.get(ActivationWaiters).size();

/** Resolves once `count` activations wait in this app (the request reached its wait). */
export const waiting = (app: TestApp, count: number, timeoutMs = 10_000) =>
  eventually(
    `${count} waiting activations`,
    () => waitersIn(app),
    (n) => n === count,
    { timeoutMs },
  );

/** A request and how long it took, in ms of wall time. */
export async function timed<T>(request: Promise<T>, startedAt = Date.now()): Promise<T & { elapsed: number }> {
  const reply = await request;
  return Object.assign(reply as object, { elapsed: Date.now() - startedAt }) as T & { elapsed: number };
}

/**
 * `POST activations` on a TCP connection of its own (no keep-alive pool), which `hangUp()`
 * destroys as a host that goes away would. `reply` resolves with the status, or null once hung up.
 */
export function activationOnOwnConnection(app: TestApp, agentId: string, token: string, body: object) {
  let hangUp: () => void = () => undefined;
  const reply = new Promise<number | null>((resolve) => {
    const request = httpRequest(`${app.baseUrl}/v1/agents/${agentId}/activations`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? null));
    });
    request.on('error', () => resolve(null));
    request.end(JSON.stringify(body));
    hangUp = () => request.destroy();
  });
  return { reply, hangUp: () => hangUp() };
}
