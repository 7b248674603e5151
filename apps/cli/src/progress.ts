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
