import type { AgentCommand, DecisionKind } from '@app/domain';
import { artifact, cmd, wcmd } from '@app/domain/testing';
import { CaseStream } from './case-stream';
import type { CaseMeta, ExpectedDecision } from './fixture-format';

/** One fixture case: a stream built through the domain, and what its expected.json says besides the derived values. */
export interface SchedulerCase {
  name: string;
  /** What the case is written to show: the generator refuses to write a case that decides otherwise. */
  expect?: { kind: DecisionKind; reason?: string };
  /**
   * A hand-written oracle (oracle-cases.ts): the expected decision written from the rule, not
   * computed. expected.json's decision is this; the generator refuses when the domain decides otherwise.
   */
  oracle?: ExpectedDecision;
  build(): { stream: CaseStream; meta: CaseMeta };
}

type CreateData = Partial<Extract<AgentCommand, { type: 'CreateWorkItem' }>['data']>;

/** A registered agent named after the case (its stream is `agent-<case>`). */
export function agent(name: string): CaseStream {
  return new CaseStream(name).run(cmd.register(name));
}

/** CreateWorkItem with a plan descriptor (`work-items/<id>/plan.md` in the agent's home). */
export function create(stream: CaseStream, id: string, data: CreateData = {}): AgentCommand {
  const plan = artifact(id, `sha256:${id}`, { updated_at: stream.now });
  return cmd.create(id, { objective: `objective of ${id}`, plan_artifact: plan, ...data });
}

/** An external wait (the app would hash a token it generated). */
export const externalWait = (
  intentId: string,
  workItemId: string | null,
  resource: string,
  source = 'github',
): AgentCommand =>
  wcmd.waitFor(intentId, workItemId, {
    wake: 'external',
    resource,
    source,
    reason: `waiting for ${resource}`,
    callback_token_hash: `sha256:${intentId}`,
  });

export const operatorPrompt = (
  messageId: string,
  body: string,
  priority?: 'interject' | 'next' | 'normal' | 'background',
): AgentCommand => wcmd.enqueue(messageId, { body, ...(priority !== undefined && { priority }) });
