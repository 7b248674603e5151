import { Global, Module } from '@nestjs/common';
import type { LeaseReadiness } from '@app/core';
import type { LeaseKeeper } from './lease-keeper';

/**
 * The lease keepers this process runs (the projector's lease, the scheduler's shards), for
 * GET /health/ready: not ready while one of them holds nothing of its group although a lease of
 * the group has been free for longer than its TTL (LeaseKeeper.missingLease, ADR 0036).
 */
export class LeaseKeepers implements LeaseReadiness {
  private readonly keepers = new Set<LeaseKeeper>();

  register(keeper: LeaseKeeper): void {
    this.keepers.add(keeper);
  }

  async missingLease(): Promise<string | null> {
    for (const keeper of this.keepers) {
      const missing = await keeper.missingLease();
      if (missing !== null) return missing;
    }
    return null;
  }
}

export const LEASE_KEEPERS = Symbol('LEASE_KEEPERS');

/** One LeaseKeepers per process: the roles' lease providers register into it, the health check reads it. */
@Global()
@Module({ providers: [{ provide: LEASE_KEEPERS, useFactory: () => new LeaseKeepers() }], exports: [LEASE_KEEPERS] })
export class LeaseKeepersModule {}
