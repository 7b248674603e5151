import type { CliIo } from './cli-io';
import { ThroughputProgress } from './progress';

describe('the throughput progress of a replay', () => {
  const io = (tty: boolean) => {
    const out: string[] = [];
    return { out, io: { stderr: (t: string) => out.push(t), stderrIsTTY: tty } as unknown as CliIo };
  };

  it('prints a line every two seconds in a pipe or a log, with events/s and the ETA', () => {
    const { out, io: pipe } = io(false);
    let now = 1_000_000;
    const progress = new ThroughputProgress(pipe, 'rebuilding read_models', 10_000, () => now);
    now += 500;
    progress.update(500);
    expect(out).toEqual([]);
    now += 1_500;
    progress.update(2_000);
    now += 1_000;
    progress.update(3_000);
    now += 1_000;
    progress.update(4_000, 12_000);
    progress.done();
    expect(out).toEqual([
      'rebuilding read_models: 20% 2000/10000 events 1000 events/s ETA 8 s\n',
      'rebuilding read_models: 33% 4000/12000 events 1000 events/s ETA 8 s\n',
    ]);
  });

  it('redraws a bar in place on a terminal, and clears it when done', () => {
    const { out, io: terminal } = io(true);
    let now = 0;
    const progress = new ThroughputProgress(terminal, 'rebuilding', 10, () => now);
    now += 1_000;
    progress.update(5);
    progress.done();
    expect(out).toEqual([
      `\rrebuilding [${'#'.repeat(15)}${'-'.repeat(15)}] 50% 5/10 events 5 events/s ETA 1 s`,
      '\r\x1b[2K',
    ]);
  });
});
