import type { FigureResult } from '../report';
import type { LoadGenerator } from './load';
import type { BenchPostgres } from './postgres';
import type { RuntimeFixture } from './runtime';

/** What every figure gets from the runner. */
export interface BenchContext {
  quick: boolean;
  pg: BenchPostgres;
  load: LoadGenerator;
  log(line: string): void;
  /** The full-run value or the quick one. */
  scale<T>(full: T, quick: T): T;
  /** Requests in flight in the HTTP and gRPC figures (connections of the load generator). */
  concurrency: number;
  /** The runtime app (RUNTIME_ROLE=api) with seeded agents, started on first use. */
  runtime(): Promise<RuntimeFixture>;
  /** Values one figure measures and a later one compares with. */
  shared: {
    /** Max HTTP command throughput (figure 3), commands/s. */
    commandRps?: number;
  };
}

export type FigureBody = Omit<FigureResult, 'id' | 'title' | 'seconds'>;

export interface Figure {
  id: number;
  title: string;
  /** Uses ctx.runtime(): the runner closes the app after the last figure that does. */
  usesRuntime?: boolean;
  run(ctx: BenchContext): Promise<FigureBody>;
}
