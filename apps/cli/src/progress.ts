import type { CliIo } from './cli-io';

const WIDTH = 30;
const REDRAW_MS = 100;

/**
 * A progress bar on stderr, drawn only on a terminal (logs and pipes get the final line
 * alone). `total` is an estimate: the bar stops at 100% and `done()` clears it.
 */
export class ProgressBar {
  private lastDraw = 0;
  private drawn = false;
  private readonly started = Date.now();

  constructor(
    private readonly io: CliIo,
    private readonly label: string,
    private readonly total: number,
  ) {}

  update(count: number): void {
    if (!this.io.stderrIsTTY || Date.now() - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = Date.now();
    const ratio = this.total > 0 ? Math.min(1, count / this.total) : 1;
    const filled = Math.round(ratio * WIDTH);
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    this.io.stderr(
      `\r${this.label} [${bar}] ${Math.round(ratio * 100)}% ${count}/${this.total} events ${Math.round(count / seconds)}/s`,
    );
    this.drawn = true;
  }

  done(): void {
    if (this.drawn) this.io.stderr('\r\x1b[2K');
  }
}

const REPORT_MS = 2_000;

/**
 * A long replay's progress on stderr: on a terminal a bar redrawn in place, elsewhere (logs,
 * pipes) one line every two seconds; both with the rate in events/s and the ETA to `total`
 * (the head position when the replay started, an upper bound of the event count).
 */
export class ThroughputProgress {
  private lastDraw = 0;
  private drawn = false;
  private readonly started: number;
  private lastLine: number;

  constructor(
    private readonly io: CliIo,
    private readonly label: string,
    private total: number,
    private readonly now: () => number = Date.now,
  ) {
    this.started = this.now();
    this.lastLine = this.started;
  }

  update(count: number, total?: number): void {
    if (total !== undefined && total > this.total) this.total = total;
    const now = this.now();
    if (this.io.stderrIsTTY ? now - this.lastDraw < REDRAW_MS : now - this.lastLine < REPORT_MS) return;
    const ratio = this.total > 0 ? Math.min(1, count / this.total) : 1;
    const rate = count / Math.max(0.001, (now - this.started) / 1000);
    const eta = rate > 0 ? Math.max(0, Math.ceil((this.total - count) / rate)) : null;
    const figures = `${count}/${this.total} events ${Math.round(rate)} events/s ETA ${eta === null ? '?' : `${eta} s`}`;
    if (this.io.stderrIsTTY) {
      this.lastDraw = now;
      const filled = Math.round(ratio * WIDTH);
      this.io.stderr(
        `\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${Math.round(ratio * 100)}% ${figures}`,
      );
      this.drawn = true;
    } else {
      this.lastLine = now;
      this.io.stderr(`${this.label}: ${Math.round(ratio * 100)}% ${figures}\n`);
    }
  }

  done(): void {
    if (this.drawn) this.io.stderr('\r\x1b[2K');
  }
}
