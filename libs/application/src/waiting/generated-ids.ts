import { type CommandEnvelope, generatedWorkItemId } from '../agents/agent-command.service';

/** Prefixes of the ids the app generates for the records a command creates. */
export type GeneratedIdKind = 'wait' | 'timer' | 'task' | 'msg';

/**
 * The id of a record a command creates (waiting intent, timer, task, message): the derivation
 * of generated work item ids (sha256 of agent + idempotency key, 32 hex) under another prefix,
 * so a repeat with the same key names the same records and answers the same reply.
 */
export function generatedId(envelope: CommandEnvelope, kind: GeneratedIdKind): string {
  return `${kind}_${generatedWorkItemId(envelope).slice('work_'.length)}`;
}
