import { RuntimeApiError } from '../../errors';
import type { HostClient } from '../host-types';

export interface FakeCall {
  method: string;
  args: unknown[];
  key?: string;
}

type Activation = Record<string, any> | Error;

/**
 * A client for unit specs of the host loop: activations answer from a queue (then wait, as a long
 * poll would, until the caller aborts), every other call is recorded and answers a plausible reply.
 */
export class FakeClient {
  readonly calls: FakeCall[] = [];
  readonly activations: Activation[] = [];
  /** Heartbeat replies, in order (then `{cancel_requested: false, interjections: []}`). */
  readonly heartbeats: Array<Record<string, any>> = [];
  /** Per method, an error to throw once. */
  readonly failures = new Map<string, Error>();

  turn(turnId: string, body: unknown = 'do the work'): Record<string, any> {
    return {
      decision: { kind: 'StartModelTurn', reason: 'message' },
      turn: { turn_id: turnId, turn_index: 1, lease_expires_at: new Date().toISOString(), work_item_id: null },
      message: { id: `m-${turnId}`, kind: 'operator_prompt', body, authority: 'operator_instruction' },
      context: { text: 'context of the agent' },
      revision: '5',
      position: '10',
    };
  }

  of(method: string): FakeCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  asClient(): HostClient {
    const record = (method: string, args: unknown[], reply: () => unknown) => {
      const options = args[args.length - 1] as { idempotencyKey?: string } | undefined;
      this.calls.push({ method, args, key: options?.idempotencyKey });
      const failure = this.failures.get(method);
      if (failure) {
        this.failures.delete(method);
        return Promise.reject(failure);
      }
      return Promise.resolve(reply());
    };
    const fake = {
      activate: (agentId: string, body: unknown, options: { signal?: AbortSignal; idempotencyKey?: string }) => {
        this.calls.push({ method: 'activate', args: [agentId, body, options], key: options.idempotencyKey });
        const next = this.activations.shift();
        if (next instanceof Error) return Promise.reject(next);
        if (next) return Promise.resolve(next);
        return new Promise((_, reject) => {
          const abort = () => reject(options.signal?.reason ?? new Error('aborted'));
          if (options.signal?.aborted) abort();
          options.signal?.addEventListener('abort', abort, { once: true });
        });
      },
      heartbeatTurn: (...args: unknown[]) =>
        record('heartbeatTurn', args, () => this.heartbeats.shift() ?? { cancel_requested: false, interjections: [] }),
      recordRound: (...args: unknown[]) => record('recordRound', args, () => ({ round: args[2] })),
      closeRound: (...args: unknown[]) => record('closeRound', args, () => ({ promotion: null })),
      postTerminal: (...args: unknown[]) => record('postTerminal', args, () => ({ turn: { status: 'closed' } })),
      createWorkItem: (...args: unknown[]) =>
        record('createWorkItem', args, () => ({
          work_item: { id: (args[1] as any).work_item_id ?? 'w-gen', objective: (args[1] as any).objective },
          warnings: [],
        })),
      updateWorkItem: (...args: unknown[]) => record('updateWorkItem', args, () => ({ work_item: { id: args[1] } })),
      replacePlan: (...args: unknown[]) => record('replacePlan', args, () => ({ work_item: { id: args[1] } })),
      pickWorkItem: (...args: unknown[]) => record('pickWorkItem', args, () => ({ current: { id: args[1] } })),
      completeWorkItem: (...args: unknown[]) =>
        record('completeWorkItem', args, () => ({ work_item: { id: args[1], state: 'completed' } })),
      getWorkItem: (...args: unknown[]) => record('getWorkItem', args, () => ({ id: args[1] })),
      getPlan: (...args: unknown[]) => record('getPlan', args, () => '# plan'),
      listWorkItems: (...args: unknown[]) => record('listWorkItems', args, () => ({ items: [], total: 0 })),
      waitFor: (...args: unknown[]) => record('waitFor', args, () => ({ waiting_intent: { id: 'i-1' }, warnings: [] })),
      spawn: (...args: unknown[]) =>
        record('spawn', args, () => {
          const body = args[1] as { agent_id?: string; workspace_mode: string; work_item_id?: string };
          const child = body.agent_id ?? 'child-gen';
          const isPrivate = body.workspace_mode === 'private_child';
          return {
            workspace_mode: body.workspace_mode,
            child_agent_id: child,
            delegation: isPrivate
              ? { delegation_id: 'dlg-1', parent_work_item_id: body.work_item_id ?? 'w-focus', label: 'label' }
              : null,
            task: isPrivate ? { id: 'dlg-1', kind: 'child_agent' } : null,
            child_message_id: 'msg-1',
            warnings: [],
            revision: '6',
            position: '11',
          };
        }),
      agentEvents: () => {
        throw new Error('not faked');
      },
    };
    return fake as unknown as HostClient;
  }
}

export const refusal = (code: string, status: number, details: Record<string, unknown> = {}) =>
  new RuntimeApiError({ code: code as never, status, message: code, details });
