import type { CoverageSource, ProjectionCoverage } from './coverage';
import type { CoveringRunner } from './runner-coverage';

/** A runner that may be on standby (ProjectionRunner: it runs while its replica holds the projector lease). */
export interface StandbyRunner extends CoveringRunner {
  readonly active: boolean;
}

/**
 * The coverage of a process whose projection runner may be on standby (ADR 0035): the runner's
 * own while it runs (no database work), the database's notices (ListenedCoverage) while another
 * replica applies the events. A switch is announced to the waiters, who look again.
 */
export class StandbyAwareCoverage implements CoverageSource {
  constructor(
    private readonly runner: StandbyRunner,
    private readonly listened: CoverageSource,
  ) {}

  current(): readonly ProjectionCoverage[] {
    return this.runner.active ? [this.runner.coverage()] : this.listened.current();
  }

  subscribe(listener: () => void): () => void {
    const offRunner = this.runner.onProgress(() => {
      if (!this.runner.active) void this.listened.ready().then(listener);
      listener();
    });
    const offListened = this.listened.subscribe(listener);
    return () => {
      offRunner();
      offListened();
    };
  }

  ready(): Promise<void> {
    return this.runner.active ? Promise.resolve() : this.listened.ready();
  }

  close(): Promise<void> {
    return this.listened.close();
  }
}
