import type { Pool } from 'pg';
import { type LeaseAudit, type LeaseChange, LeaseKeeper, type LeaseKeeperOptions } from './lease-keeper';
import { LeaseTable } from './lease-table';
import { DEFAULT_SCHEDULER_SHARDS, shardOf } from './shard-hash';

/** The lease groups of the replicated roles. */
export const SCHEDULER_LEASE_GROUP = 'scheduler';
export const PROJECTOR_LEASE_GROUP = 'projector';
/** SCHEDULER_LEASE_TTL_MS and PROJECTOR_LEASE_TTL_MS when unset. */
export const DEFAULT_LEASE_TTL_MS = 10_000;

/** What the ownership of the replicated roles reads of the configuration (libs/platform provides it). */
export interface OwnershipSettings {
  /** SCHEDULER_SHARDS: the agents hash to this many shards (default 256); the same on every replica. */
  readonly schedulerShards?: number;
  /** SCHEDULER_LEASE_TTL_MS: a scheduler replica that stops renewing loses its shards after this (default 10 s). */
  readonly schedulerLeaseTtlMs?: number;
  /** PROJECTOR_LEASE_TTL_MS: a standby projector takes over this long after the active one stopped renewing (default 10 s). */
  readonly projectorLeaseTtlMs?: number;
  /**
   * True when no other process can reach this database (the embedded Postgres belongs to one
   * runtime): leases left in it are a previous run's (a crash), taken over at once instead of
   * after their TTL.
   */
  readonly soleProcess?: boolean;
}

export const OWNERSHIP_SETTINGS = Symbol('OWNERSHIP_SETTINGS');

/** What changed for the agents (a predicate per side: the worker knows the agents, this knows the shards). */
export interface AgentOwnershipChange {
  gained(agentId: string): boolean;
  lost(agentId: string): boolean;
  readonly gainedAny: boolean;
  readonly lostAny: boolean;
  /** The shards gained (for the agenda queries of ADR 0038). */
  readonly gainedShards?: readonly number[];
}

/**
 * The scheduler's ownership of agents: an agent belongs to the shard `shardOf(agent id)`, and a
 * replica acts on it while its LeaseKeeper holds that shard.
 */
export class ShardOwnership {
  constructor(
    readonly keeper: LeaseKeeper,
    readonly shards: number,
  ) {}

  start(): Promise<void> {
    return this.keeper.start();
  }

  stop(): Promise<void> {
    return this.keeper.stop();
  }

  shardOf(agentId: string): number {
    return shardOf(agentId, this.shards);
  }

  /** The lease this replica acts under for the agent now, or null when another replica (or none) holds its shard. */
  leaseOf(agentId: string): LeaseAudit | null {
    return this.keeper.lease(this.shardOf(agentId));
  }

  /** True when the agent's shard is still held here but its local deadline passed (no round since). */
  lapsed(agentId: string): boolean {
    return this.keeper.lapsed(this.shardOf(agentId));
  }

  /** The shards this replica holds now, and how many there are (an agent's shard is its shard key modulo that). */
  heldShards(): { count: number; held: readonly number[] } {
    return { count: this.shards, held: this.keeper.shards() };
  }

  onChange(listener: (change: AgentOwnershipChange) => void): () => void {
    return this.keeper.onChange((change: LeaseChange) => {
      const gained = new Set(change.gained);
      const lost = new Set(change.lost);
      listener({
        gained: (agentId) => gained.has(this.shardOf(agentId)),
        lost: (agentId) => lost.has(this.shardOf(agentId)),
        gainedAny: gained.size > 0,
        lostAny: lost.size > 0,
        gainedShards: change.gained,
      });
    });
  }
}

/** The scheduler replica's shard ownership on this pool, from the settings. */
export function schedulerOwnership(
  pool: Pool,
  settings: OwnershipSettings = {},
  options: Partial<LeaseKeeperOptions> = {},
): ShardOwnership {
  const shards = settings.schedulerShards ?? DEFAULT_SCHEDULER_SHARDS;
  const table = new LeaseTable(pool, SCHEDULER_LEASE_GROUP, shards);
  const keeper = new LeaseKeeper(table, {
    ttlMs: settings.schedulerLeaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    takeOver: settings.soleProcess,
    ...options,
  });
  return new ShardOwnership(keeper, shards);
}

/** The projector replica's lease: one shard for the whole role (the active projector holds it). */
export function projectorLease(
  pool: Pool,
  settings: OwnershipSettings = {},
  options: Partial<LeaseKeeperOptions> = {},
): LeaseKeeper {
  const table = new LeaseTable(pool, PROJECTOR_LEASE_GROUP, 1);
  return new LeaseKeeper(table, {
    ttlMs: settings.projectorLeaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    takeOver: settings.soleProcess,
    ...options,
  });
}
