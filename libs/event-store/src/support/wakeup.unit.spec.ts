import { Wakeup, backoffMs } from './wakeup';

describe('Wakeup', () => {
  it('remembers a wake() that came before wait()', async () => {
    const wakeup = new Wakeup();
    wakeup.wake();
    const started = Date.now();
    await wakeup.wait(5000);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('ends a wait early on wake() and otherwise after the timeout', async () => {
    const wakeup = new Wakeup();
    const waiting = wakeup.wait(5000);
    wakeup.wake();
    await waiting;
    const started = Date.now();
    await wakeup.wait(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('backs off exponentially up to 5 s', () => {
    expect([0, 1, 2, 10].map(backoffMs)).toEqual([100, 200, 400, 5000]);
  });
});
