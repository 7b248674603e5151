import type { AgentState } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { PROJECTION_RUNNER, type ProjectionRunner } from '@app/read-models';
import type { TestApp } from './app';

export interface HttpReply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small JSON client for e2e specs. */
export function httpClient(app: TestApp, token?: string) {
  return async function request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpReply<T>> {
    const init: RequestInit = {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??=
        typeof body === 'string' ? 'text/markdown' : 'application/json';
    }
    const response = await fetch(`${app.baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (plan bodies)
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
}

/** Waits until the in-process projector has applied every event committed so far (no sleeps). */
export async function projected(app: TestApp): Promise<void> {
  const store = app.runtime.app.get<EventStore>(EVENT_STORE);
  const runner = app.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
  const head = await store.headPosition();
  if (head !== null) await runner.waitFor(head);
}
