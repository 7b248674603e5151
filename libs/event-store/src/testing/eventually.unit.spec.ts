import { eventually, until, WaitTimeoutError } from './eventually';

describe('eventually (how specs wait)', () => {
  it('returns the first value that holds, probing again until then', async () => {
    let probes = 0;
    const value = await eventually(
      'the third probe',
      () => ++probes,
      (n) => n >= 3,
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
    expect(probes).toBe(3);
  });

  it('does not wait when the condition already holds', async () => {
    const started = performance.now();
    expect(
      await eventually(
        'an async value',
        async () => 'ready',
        (v) => v === 'ready',
        { intervalMs: 10_000 },
      ),
    ).toBe('ready');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('fails after the deadline naming what was awaited and the last value seen', async () => {
    let checkpoint = 0n;
    const waiting = eventually(
      'the checkpoint to reach 10',
      () => (checkpoint += 1n),
      (c) => c >= 10n,
      { timeoutMs: 30, intervalMs: 5 },
    );
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError<bigint>).last).toBe(checkpoint);
    expect((error as Error).message).toMatch(
      /^timed out after 30 ms \(\d+ probes\) waiting for the checkpoint to reach 10; last value seen: "\d+n"$/,
    );
  });

  it('passes a probe error through at once', async () => {
    await expect(
      eventually(
        'a failing probe',
        () => Promise.reject(new Error('connection refused')),
        () => true,
      ),
    ).rejects.toThrow('connection refused');
  });

  it('keeps the boolean form of the contract suites', async () => {
    let ready = false;
    setImmediate(() => (ready = true));
    await until(() => ready, 1000, 'ready');
    await expect(until(() => false, 20, 'never')).rejects.toThrow('waiting for never; last value seen: false');
  });
});
