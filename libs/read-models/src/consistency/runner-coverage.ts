import type { CoverageSource, ProjectionCoverage } from './coverage';

/** What RunnerCoverage reads of a projection runner (ProjectionRunner has it). */
export interface CoveringRunner {
  coverage(): ProjectionCoverage;
  onProgress(listener: () => void): () => void;
}

/**
 * The coverage of the projection runner(s) of this process: read from their memory and announced
 * by their progress (the checkpoint's moves, resumes, rebuilds): no database work at all.
 */
export class RunnerCoverage implements CoverageSource {
  constructor(private readonly runners: readonly CoveringRunner[]) {}

  current(): ProjectionCoverage[] {
    return this.runners.map((runner) => runner.coverage());
  }

  subscribe(listener: () => void): () => void {
    const offs = this.runners.map((runner) => runner.onProgress(listener));
    return () => offs.forEach((off) => off());
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {}
}
