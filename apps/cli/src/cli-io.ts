/** Where a CLI run reads and writes: the process, or a spec's buffers. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Draw progress bars only on a terminal. */
  stderrIsTTY: boolean;
}

export function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stderrIsTTY: Boolean(process.stderr.isTTY),
  };
}

/** Exit codes (documented in `--help` and docs/decisions/0007). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  notAvailable: 3,
  notFound: 4,
  storeUnreachable: 5,
  conflict: 6,
  unreadable: 7,
  /** `check`: a projection is stalled (an agent parked by a poison event) or lagging. */
  notReady: 9,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI explains in one line and maps to its exit code. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
