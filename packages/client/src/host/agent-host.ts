/**
 * AgentHost: drives one or many agents of the runtime (docs/decisions/0029-agent-host.md). Per
 * agent one loop: a long-poll activation (no busy polling; the same Idempotency-Key until a reply
 * arrives, so a retry after a dropped connection answers the turn the lost reply opened); a turn,
 * run it (TurnRunner); no turn, activate again. Errors and 429 back off (never sooner than
 * Retry-After). `stop()` ends the loops; what happens to a running turn is its mode.
 */
import { randomUUID } from 'node:crypto';
import { RuntimeApiError } from '../errors';
import { sleep } from '../retry';
import type { AgentHostOptions, HostEvent, HostListener, HostTool, StopMode } from './host-types';
import { DELEGATION_TOOLS } from './delegation-tools';
import { WORK_ITEM_TOOLS } from './tools';
import { TurnRunner, type OpenedTurn } from './turn-runner';

const DEFAULTS = { leaseTtlMs: 60_000, waitMs: 30_000, maxRounds: 50, backoffMs: 250, maxBackoffMs: 30_000 };

export interface StopOptions {
  /**
   * What a running turn does (default `interrupt`): `interrupt` ends it at the next round boundary
   * with the terminal `interrupted` (the runtime requeues its message for the next host at once;
   * it counts as an interruption), `finish` lets it run to its own end, `abandon` leaves at once
   * and posts nothing (the turn's lease expires and the runtime recovers it: a crash, on purpose).
   */
  turns?: StopMode;
}

export class AgentHost {
  /** The tools the model is offered: the work-item tools, wait_for, spawn_agent, then the host's own. */
  readonly tools: readonly HostTool[];
  private readonly listeners = new Set<HostListener>();
  private readonly loops = new Map<string, Promise<void>>();
  private readonly agents: string[];
  private readonly settings: typeof DEFAULTS;
  private stopController = new AbortController();
  private stopMode: StopMode | null = null;
  private started = false;

  constructor(private readonly options: AgentHostOptions) {
    const builtIn = options.spawnTool === false ? WORK_ITEM_TOOLS : [...WORK_ITEM_TOOLS, ...DELEGATION_TOOLS];
    const tools = [...builtIn, ...(options.tools ?? [])];
    const names = new Set<string>();
    for (const tool of tools) {
      if (names.has(tool.name)) throw new Error(`AgentHost: two tools are named "${tool.name}"`);
      names.add(tool.name);
    }
    this.tools = tools;
    this.agents = [...new Set(options.agents ?? [])];
    this.settings = {
      leaseTtlMs: options.leaseTtlMs ?? DEFAULTS.leaseTtlMs,
      waitMs: Math.min(60_000, Math.max(1_000, options.waitMs ?? DEFAULTS.waitMs)),
      maxRounds: options.maxRounds ?? DEFAULTS.maxRounds,
      backoffMs: options.backoffMs ?? DEFAULTS.backoffMs,
      maxBackoffMs: options.maxBackoffMs ?? DEFAULTS.maxBackoffMs,
    };
    if (options.onEvent) this.listeners.add(options.onEvent);
  }

  /** Listens to the host's events; returns the function that stops listening. */
  on(listener: HostListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a loop for every agent given so far (and, from now on, for each added one). */
  start(): this {
    if (this.stopMode !== null) throw new Error('AgentHost: stopped; make a new host');
    this.started = true;
    for (const agentId of this.agents) this.startLoop(agentId);
    return this;
  }

  /** Runs one more agent (at once when the host is started). */
  addAgent(agentId: string): this {
    if (!this.agents.includes(agentId)) this.agents.push(agentId);
    if (this.started && this.stopMode === null) this.startLoop(agentId);
    return this;
  }

  /** The agents whose loops run. */
  get running(): string[] {
    return [...this.loops.keys()];
  }

  /**
   * Ends every loop: the waiting activations are aborted and no new one starts; a running turn
   * ends as `turns` says (default `interrupt`). Resolves when every loop has ended.
   */
  async stop(options: StopOptions = {}): Promise<void> {
    if (this.stopMode === null) {
      this.stopMode = options.turns ?? 'interrupt';
      this.stopController.abort(new Error('AgentHost stopped'));
    }
    await Promise.all(this.loops.values());
  }

  private emit(event: HostEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the host goes on.
      }
    }
  }

  private startLoop(agentId: string): void {
    if (this.loops.has(agentId)) return;
    const loop = this.loop(agentId).finally(() => this.loops.delete(agentId));
    this.loops.set(agentId, loop);
  }

  private async loop(agentId: string): Promise<void> {
    const signal = this.stopController.signal;
    const { client } = this.options;
    const body = {
      wait_ms: this.settings.waitMs,
      lease_ttl_ms: this.settings.leaseTtlMs,
      ...(this.options.contextBudget !== undefined ? { context_budget: this.options.contextBudget } : {}),
    };
    // One key per activation until it is answered: a retry after a drop answers the turn it opened.
    let key = randomUUID();
    let failures = 0;
    while (this.stopMode === null) {
      const sent = Date.now();
      let reply: Awaited<ReturnType<typeof client.activate>>;
      try {
        reply = await client.activate(agentId, body, { idempotencyKey: key, signal });
      } catch (error) {
        if (this.stopMode !== null) break;
        failures += 1;
        this.emit({ type: 'error', agent_id: agentId, stage: 'activation', error });
        await this.pause(this.backoff(failures, error));
        continue;
      }
      key = randomUUID();
      failures = 0;
      const decision = (reply.decision ?? {}) as { kind?: string; reason?: string };
      this.emit({
        type: 'activation',
        agent_id: agentId,
        decision: decision.kind ?? 'unknown',
        reason: decision.reason ?? '',
        turn: !!reply.turn,
      });
      if (reply.turn) {
        await this.runTurn(agentId, reply as OpenedTurn);
        continue;
      }
      // Answered early without a turn (stopped, paused, the server closing): wait for the agent to change.
      if (Date.now() - sent < this.settings.waitMs / 2) await this.waitForChange(agentId, reply.revision);
    }
  }

  private async runTurn(agentId: string, opened: OpenedTurn): Promise<void> {
    this.emit({
      type: 'turn_opened',
      agent_id: agentId,
      turn_id: opened.turn.turn_id,
      message_id: opened.message?.id ?? null,
      work_item_id: opened.turn.work_item_id,
    });
    const runner = new TurnRunner(
      {
        client: this.options.client,
        model: this.options.model,
        tools: this.tools,
        instructions: this.options.instructions,
        leaseTtlMs: this.settings.leaseTtlMs,
        maxRounds: this.settings.maxRounds,
        emit: (event) => this.emit(event),
      },
      agentId,
      opened,
      { stopping: () => this.stopMode, stopSignal: this.stopController.signal },
    );
    await runner.run();
  }

  /** Until the agent's stream has an event after `revision`, `waitMs` passes or the host stops. */
  private async waitForChange(agentId: string, revision: string | undefined): Promise<void> {
    const done = new AbortController();
    const stop = () => done.abort();
    this.stopController.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, this.settings.waitMs);
    try {
      const frames = this.options.client.agentEvents(agentId, { after: revision, signal: done.signal });
      for await (const _frame of frames) break;
    } catch (error) {
      if (!done.signal.aborted) {
        this.emit({ type: 'error', agent_id: agentId, stage: 'wait_for_change', error });
        await this.pause(this.backoff(1, error));
      }
    } finally {
      clearTimeout(timer);
      this.stopController.signal.removeEventListener('abort', stop);
    }
  }

  /** Full-jitter exponential backoff, never under the server's Retry-After. */
  private backoff(failures: number, error: unknown): number {
    const ceiling = Math.min(this.settings.maxBackoffMs, this.settings.backoffMs * 2 ** (failures - 1));
    const retryAfter = error instanceof RuntimeApiError ? (error.retryAfterMs ?? 0) : 0;
    return Math.max(retryAfter, Math.round(ceiling / 2 + (Math.random() * ceiling) / 2));
  }

  private pause(ms: number): Promise<void> {
    return sleep(ms, this.stopController.signal).catch(() => undefined);
  }
}
