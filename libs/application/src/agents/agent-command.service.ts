import { hash, randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  type AgentCommand,
  type AgentEvent,
  type AgentState,
  type CommandMeta,
  type MessageView,
  type ReminderSettings,
  type RoundTexts,
  decide as decideAgent,
  roundTextsOf,
  traceRoundsToRead,
} from '@app/domain';
import { CLOCK, type Clock, NO_TRACING, TRACING, type Tracing } from '@app/core';
import type { Caller } from '../auth/request-authorizer';
import { withLocalPlanPaths } from '../plans/plan-paths';
import { APPLICATION_SETTINGS, type ApplicationSettings, reminderSettings } from '../settings';
import { AGENT_REPOSITORY } from './agents.providers';
import type { AgentRepository } from './agent-repository';
import type { CommandScope } from './command-windows';
import { commandFingerprint } from './command-fingerprint';

/** What every command carries besides its own fields: who, which agent, idempotency, concurrency. */
export interface CommandEnvelope {
  agentId: string;
  caller: Caller;
  /** `Idempotency-Key` header / gRPC `command_id`; generated when absent. */
  idempotencyKey?: string;
  /** Optimistic check on the agent stream revision. */
  expectedRevision?: bigint;
  correlationId?: string;
  /** `scheduler` for the scheduler's own writes: their ids never enter the callers' window. */
  scope?: CommandScope;
  /** More fields for the metadata of every event the command appends (the scheduler's lease, ADR 0035). */
  metadata?: Readonly<Record<string, string | number>>;
}

export interface RunOptions {
  /** Fields of the command's data the handler read from the server's state, not the request: not fingerprinted. */
  unfingerprinted?: readonly string[];
  /** False when the key is itself the identity of what is sent (a webhook's event_id): a repeat always replays. */
  fingerprint?: boolean;
}

export type Renderer<C, R> = (command: C, before: AgentState, after: AgentState, events: readonly AgentEvent[]) => R;

/**
 * A reply plus the agent stream revision after the write and `position`: the store's global
 * position of the last event the command appended (for a repeat or a command that wrote
 * nothing, of the agent's last event), both decimal strings; a read with `min_position` set to
 * it sees the write (docs/api.md, "Consistency of reads").
 */
export type WithRevision<R> = R & { revision: string | null; position: string | null };

/**
 * Runs a domain command against an agent: load, decide, append, render. Handlers stay thin:
 * they build the domain command and pick the renderer; every rule lives in libs/domain.
 */
@Injectable()
export class AgentCommandService {
  constructor(
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepository<AgentState, AgentEvent>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(APPLICATION_SETTINGS) private readonly settings?: ApplicationSettings,
    @Optional() @Inject(TRACING) private readonly tracing: Tracing = NO_TRACING,
  ) {}

  /** The reminder thresholds of the settings (the domain's defaults without settings). */
  get reminders(): ReminderSettings {
    return reminderSettings(this.settings);
  }

  /** The command meta: time from the injected clock, the idempotency key as command id. */
  meta(envelope: CommandEnvelope): CommandMeta {
    return { now: this.clock.now().toISOString(), command_id: commandIdOf(envelope), actor: envelope.caller.tokenName };
  }

  async run<C extends AgentCommand, R>(
    envelope: CommandEnvelope,
    command: C,
    render: Renderer<C, R>,
    options: RunOptions = {},
  ): Promise<WithRevision<R>> {
    const transact = () =>
      this.agents.transact(
        {
          agentId: envelope.agentId,
          commandId: command.meta.command_id,
          expectedRevision: envelope.expectedRevision,
          ...this.identity(envelope, command, options),
          actor: envelope.caller.tokenName,
          correlationId: envelope.correlationId,
          metadata: envelope.metadata,
        },
        (state) => decideAgent(command, state),
      );
    // Tracing on: the command span covers decide and append; the events it appends carry its context.
    const result = this.tracing.enabled
      ? await this.tracing.inSpan(
          `command ${command.type}`,
          { 'agent.id': envelope.agentId, 'agent_runtime.command': command.type },
          transact,
        )
      : await transact();
    const reply = this.withLocalPlans(envelope.agentId, render(command, result.before, result.after, result.events));
    return { ...reply, revision: decimal(result.revision), position: decimal(result.position) };
  }

  /**
   * A reply with each plan descriptor's `path` under this replica's AGENT_HOME: the domain knows
   * only `relative_path`. Unchanged without settings (unit specs).
   */
  withLocalPlans<R>(agentId: string, reply: R): R {
    return this.settings ? withLocalPlanPaths(reply, this.settings.agentHome, agentId) : reply;
  }

  /**
   * Decides without appending: a command that would be refused throws here, before the
   * handler touches anything outside the store (plan files). A repeated command passes; a
   * reused key naming another request is refused here too.
   */
  async dryRun(envelope: CommandEnvelope, command: AgentCommand, options: RunOptions = {}): Promise<void> {
    const loaded = await this.agents.load(envelope.agentId);
    const ctx = { agentId: envelope.agentId, commandId: command.meta.command_id };
    if (this.agents.repeatOf({ ...ctx, ...this.identity(envelope, command, options) }, loaded)) return;
    decideAgent(command, loaded.state);
  }

  /** True when the window remembers the command's key: it is a repeat, answered with its first reply. */
  async isRepeat(envelope: CommandEnvelope, command: AgentCommand, options: RunOptions = {}): Promise<boolean> {
    const loaded = await this.agents.load(envelope.agentId);
    const ctx = { agentId: envelope.agentId, commandId: command.meta.command_id };
    return this.agents.repeatOf({ ...ctx, ...this.identity(envelope, command, options) }, loaded) !== null;
  }

  /**
   * The scope of a write, and for a caller's key: the fingerprint of the request it names (a
   * generated id is never sent again, so it needs none).
   */
  private identity(envelope: CommandEnvelope, command: AgentCommand, options: RunOptions) {
    if (envelope.scope === 'scheduler') return { scope: 'scheduler' as const };
    if (envelope.idempotencyKey === undefined || options.fingerprint === false) return { scope: 'caller' as const };
    return { scope: 'caller' as const, fingerprint: commandFingerprint(command, options.unfingerprinted) };
  }

  /**
   * The texts of the closed rounds the context of `state` shows (the state keeps none, ADR 0042):
   * read from their AssistantRoundRecorded events, at most TRACE_ROUNDS per item shown.
   */
  async roundTexts(agentId: string, state: AgentState): Promise<RoundTexts> {
    const wanted = traceRoundsToRead(state);
    if (wanted.length === 0) return new Map();
    return roundTextsOf(
      await this.agents.eventsAt(
        agentId,
        wanted.map((round) => BigInt(round.revision)),
      ),
    );
  }

  /**
   * The view with its body: a processed message's (the state keeps none) is read from its
   * MessageQueued event, at the revision its `seq` names.
   */
  async withMessageBody(agentId: string, message: MessageView): Promise<MessageView> {
    if (message.body !== null) return message;
    const [queued] = await this.agents.eventsAt(agentId, [BigInt(message.seq)]);
    return queued?.type === 'MessageQueued' && queued.data.message_id === message.id
      ? { ...message, body: queued.data.body }
      : message;
  }

  /** The cached state of the agent, without IO (it may lag other writers): for hints only. */
  peek(agentId: string): AgentState | null {
    return this.agents.peek(agentId);
  }

  /** The cached state when it includes the event at `revision` (AgentRepository.peekAt), else null; no IO. */
  peekAt(agentId: string, revision: bigint): AgentState | null {
    return this.agents.peekAt(agentId, revision);
  }

  /** The global position of the agent's last event (what a step that wrote nothing names), or null with no stream. */
  async lastPosition(agentId: string): Promise<string | null> {
    return decimal(await this.agents.lastPosition(agentId, await this.agents.load(agentId)));
  }

  /** The agent's current state and stream revision (command side; used for pre-checks); `keep`: AgentRepository.load's. */
  async load(
    agentId: string,
    options: { keep?: boolean } = {},
  ): Promise<{ state: AgentState; revision: bigint | null; position?: string | null }> {
    const loaded = await this.agents.load(agentId, options);
    const position = loaded.position === undefined ? undefined : decimal(loaded.position);
    return { state: loaded.state, revision: loaded.revision, position };
  }
}

const decimal = (value: bigint | null): string | null => (value === null ? null : value.toString());

const commandIds = new WeakMap<CommandEnvelope, string>();

/** Stable per envelope: the key the caller gave, or one generated once. */
export function commandIdOf(envelope: CommandEnvelope): string {
  if (envelope.idempotencyKey) return envelope.idempotencyKey;
  let id = commandIds.get(envelope);
  if (!id) commandIds.set(envelope, (id = randomUUID()));
  return id;
}

/**
 * A generated work item id, `work_<32 hex>`: derived from the idempotency key when there is
 * one, so a repeated create answers with the same item.
 */
export function generatedWorkItemId(envelope: CommandEnvelope): string {
  const seed = `${envelope.agentId}\u0000${commandIdOf(envelope)}`;
  return `work_${hash('sha256', seed).slice(0, 32)}`;
}
