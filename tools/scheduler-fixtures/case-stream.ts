import {
  type AgentCommand,
  type AgentEvent,
  type AgentState,
  decide,
  decideNextAction,
  dueTimers,
  evolve,
  expiredTasks,
  expiredTurn,
  initialAgentState,
  type SchedulerDecision,
} from '@app/domain';
import { derivedEventId, type StoredEventJson } from '@app/application';
import { currentSchemaVersion } from '@app/core';

/*
 * One agent stream of a scheduler fixture, written the way the runtime writes it: every command
 * decided by the domain on the folded state (a refusal is a bug in the case and throws), with a
 * clock that moves one second per command, and the scheduler's own steps done the way
 * SchedulerStepService does them (expire a lapsed lease, fire due timers, decide, RecordDecision,
 * then carry out a tick, a reduce-only message or, for an activation, StartTurn), under the
 * actor `scheduler` with command ids derived from the state version they were decided on.
 */

export const FIXTURE_START = '2026-01-01T00:00:00.000Z';
export const SCHEDULER_ACTOR = 'scheduler';
/** Decisions after which a settling worker steps again (they change what the next decision is). */
const CHAINING = new Set(['EmitSystemTick', 'ReduceMessageOnly']);

type Entry = { event: AgentEvent; command_id: string; actor: string; recorded_at: string };
type Command = { type: AgentCommand['type']; data: unknown };

/** The store's timestamp format (microseconds, UTC). */
const storeTime = (iso: string): string => iso.replace(/\.(\d{3})Z$/, '.$1000Z');

export class CaseStream {
  state: AgentState = initialAgentState();
  private readonly entries: Entry[] = [];
  private clock = Date.parse(FIXTURE_START);
  private commands = 0;
  private ids = 0;

  constructor(readonly agentId: string) {}

  /** The command clock (ISO, milliseconds): what the service's clock would say. */
  get now(): string {
    return new Date(this.clock).toISOString();
  }

  /** `minutes` from now, as an RFC 3339 instant (for fire_at, recheck_at...). */
  later(minutes: number): string {
    return new Date(this.clock + minutes * 60_000).toISOString();
  }

  advance(minutes: number): this {
    this.clock += minutes * 60_000;
    return this;
  }

  get revision(): number {
    return this.entries.length - 1;
  }

  /** Decides operator commands, one second apart (the builders' meta is replaced). */
  run(...commands: AgentCommand[]): this {
    return this.as('operator', commands);
  }

  /** Decides an agent host's commands (rounds, terminals, heartbeats), one second apart. */
  host(...commands: AgentCommand[]): this {
    return this.as('host', commands);
  }

  private as(actor: string, commands: AgentCommand[]): this {
    for (const command of commands) {
      this.clock += 1000;
      this.commands += 1;
      this.apply(command, `cmd-${this.commands}`, actor);
    }
    return this;
  }

  /** One scheduler step at the next second; `activate` names the turn a host's activation opens. */
  step(activate?: string): SchedulerDecision {
    this.clock += 1000;
    this.maintain();
    const decision = decideNextAction(this.state, this.now);
    // A tick is emitted in its record's append (ADR 0049).
    const tick = decision.kind === 'EmitSystemTick' ? { message_id: this.nextId('m-tick') } : {};
    this.scheduler({ type: 'RecordDecision', data: { decision, at: this.now, ...tick } }, 'record');
    if (decision.kind === 'ReduceMessageOnly' && decision.message_id) {
      this.scheduler(
        { type: 'ReduceMessage', data: { message_id: decision.message_id } },
        `reduce:${decision.message_id}`,
      );
    } else if (decision.kind === 'StartModelTurn' && decision.message_id && activate) {
      this.apply(
        {
          type: 'StartTurn',
          data: { turn_id: activate, message_id: decision.message_id, lease_ttl_ms: 60_000 },
          meta: this.meta('host'),
        },
        `activation:${activate}`,
        'host',
      );
    }
    return decision;
  }

  /** The worker's settle: steps while a step changed what comes next (at most 16). */
  settle(): SchedulerDecision {
    let decision = this.step();
    for (let i = 1; i < 16 && CHAINING.has(decision.kind); i++) decision = this.step();
    return decision;
  }

  /** The stream as stored: one StoredEvent JSON per event, revisions and positions as decimal strings. */
  stored(): StoredEventJson[] {
    return this.entries.map((entry, index) => ({
      id: derivedEventId(`scheduler-fixture:${this.agentId}`, String(index)),
      stream: `agent-${this.agentId}`,
      type: entry.event.type,
      data: entry.event.data as Record<string, unknown>,
      metadata: {
        command_id: entry.command_id,
        correlation_id: entry.command_id,
        causation_id: entry.command_id,
        actor: entry.actor,
        schema_version: currentSchemaVersion(entry.event.type),
      },
      revision: String(index),
      position: String(index + 1),
      recorded_at: entry.recorded_at,
    }));
  }

  private maintain(): void {
    const expired = expiredTurn(this.state, this.now);
    if (expired)
      this.scheduler({ type: 'ExpireLease', data: { turn_id: expired.turn_id } }, `expire:${expired.turn_id}`);
    for (const task of expiredTasks(this.state, this.now)) {
      this.scheduler(
        { type: 'ExpireTaskLease', data: { task_id: task.id, message_id: this.nextId('m-lease') } },
        `expire-task:${task.id}:${task.lease_expires_at}`,
      );
    }
    for (const timer of dueTimers(this.state, this.now)) {
      this.scheduler(
        { type: 'FireTimer', data: { timer_id: timer.id, message_id: this.nextId('m-timer') } },
        `fire:${timer.id}:${timer.fire_at}`,
      );
    }
  }

  private scheduler(command: Command, what: string): void {
    this.apply(
      { ...command, meta: this.meta(SCHEDULER_ACTOR) } as AgentCommand,
      `sched:${this.state.version}:${what}`,
      SCHEDULER_ACTOR,
    );
  }

  private meta(actor: string) {
    return { now: this.now, command_id: 'pending', actor };
  }

  private apply(command: AgentCommand, commandId: string, actor: string): void {
    const events = decide(
      { ...command, meta: { now: this.now, command_id: commandId, actor } } as AgentCommand,
      this.state,
    );
    for (const event of events) {
      this.entries.push({ event, command_id: commandId, actor, recorded_at: storeTime(this.now) });
      this.state = evolve(this.state, event);
    }
  }

  private nextId(prefix: string): string {
    this.ids += 1;
    return `${prefix}-${this.ids}`;
  }
}
