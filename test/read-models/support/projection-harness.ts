import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide, type PlanArtifact } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { AgentRepository } from '@app/application';
import { agentStateDecider } from '@app/core';
import { createProjectionRunner, PostgresSnapshotStore, ProjectionRunner, type Projector } from '@app/read-models';
import { isolatedDatabaseUrl, testPool, testStore } from '../../support/postgres';

export type Meta = { now: string; command_id: string };
/** A command built on the state it will be decided on (the scheduler's commands need the current decision). */
export type Build = (meta: Meta, state: AgentState) => AgentCommand;

export const planArtifact = (id: string): PlanArtifact => ({
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: '',
  preview_complete: true,
});

/**
 * A read-model spec's world: a schema of its own, a store and repository on it, scripts of
 * commands decided through the domain (one second apart), and the projection runner.
 */
export class ProjectionHarness {
  private seq = 0;
  /** Newest position written, and the number of events: what a projection must reach. */
  newest = -1n;
  events = 0;

  private constructor(
    readonly pool: Pool,
    readonly store: EventStore,
    readonly repository: AgentRepository<AgentState, AgentEvent>,
  ) {}

  static async open(schemaPrefix: string): Promise<ProjectionHarness> {
    const pool = await testPool(10, await isolatedDatabaseUrl(schemaPrefix));
    const store = await testStore(pool);
    return new ProjectionHarness(
      pool,
      store,
      new AgentRepository(store, new PostgresSnapshotStore(pool), agentStateDecider),
    );
  }

  async run(agentId: string, script: Build[]): Promise<void> {
    for (const build of script) {
      this.seq += 1;
      const meta = { now: new Date(Date.UTC(2026, 0, 1, 0, 0, this.seq)).toISOString(), command_id: `c-${this.seq}` };
      const command = build(meta, (await this.repository.load(agentId)).state);
      const result = await this.repository.transact({ agentId, commandId: meta.command_id, actor: 'test' }, (s) =>
        decide(command, s),
      );
      this.events += result.events.length;
      if (result.position !== null && result.position > this.newest) this.newest = result.position;
    }
  }

  /**
   * Appends a life decided elsewhere (a domain spec's random life) as one command on `agentId`'s
   * stream, its events re-addressed to that agent (`data.agent_id`), as they were decided.
   */
  async record(agentId: string, events: readonly AgentEvent[]): Promise<void> {
    this.seq += 1;
    const readdressed = events.map(
      (event) =>
        ('agent_id' in event.data ? { ...event, data: { ...event.data, agent_id: agentId } } : event) as AgentEvent,
    );
    const result = await this.repository.transact(
      { agentId, commandId: `c-${this.seq}`, actor: 'test' },
      () => readdressed,
    );
    this.events += result.events.length;
    if (result.position !== null && result.position > this.newest) this.newest = result.position;
  }

  /**
   * Runs the projection runner until it has applied everything written so far: the app's (every
   * read model), or one of only `projectors`, with a checkpoint of its own (a spec of one model).
   */
  async project(projectors?: Projector<AgentState>[]): Promise<void> {
    const runner =
      projectors === undefined
        ? createProjectionRunner(this.pool, this.store)
        : new ProjectionRunner(this.pool, this.store, agentStateDecider, projectors, {
            name: `only_${projectors.map((p) => p.name).join('_')}`,
          });
    await runner.start();
    await runner.waitFor(this.newest);
    await runner.stop();
  }

  async dump(tables: string[], order = '1, 2'): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of tables) out[table] = (await this.pool.query(`SELECT * FROM ${table} ORDER BY ${order}`)).rows;
    return out;
  }

  async close(): Promise<void> {
    await this.store.close();
    await this.pool.end();
  }
}
