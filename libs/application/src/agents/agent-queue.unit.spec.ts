import { AgentQueue } from './agent-queue';

/** A task that waits until the test releases it, recording when it starts and ends. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const task = async () => {
    log.push(`start ${name}`);
    await released;
    log.push(`end ${name}`);
    return name;
  };
  return { task, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the per-agent queue', () => {
  it('runs the tasks of one agent one at a time, in the order they were queued', async () => {
    const queue = new AgentQueue();
    const log: string[] = [];
    const gates = ['a1', 'a2', 'a3'].map((name) => gate(log, name));
    const results = gates.map((g) => queue.run('agent-a', g.task));
    await settle();
    expect(log).toEqual(['start a1']);
    gates[2].release();
    gates[1].release();
    await settle();
    expect(log).toEqual(['start a1']);
    gates[0].release();
    await expect(Promise.all(results)).resolves.toEqual(['a1', 'a2', 'a3']);
    expect(log).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('never holds one agent behind another: a stuck agent blocks only its own queue', async () => {
    const queue = new AgentQueue();
    const log: string[] = [];
    const stuck = gate(log, 'a1');
    const pending = queue.run('agent-a', stuck.task);
    await expect(queue.run('agent-b', async () => 'b1')).resolves.toBe('b1');
    await expect(queue.run('agent-c', async () => 'c1')).resolves.toBe('c1');
    expect(log).toEqual(['start a1']);
    stuck.release();
    await expect(pending).resolves.toBe('a1');
  });

  it('hands each caller its own error and goes on with the next task', async () => {
    const queue = new AgentQueue();
    const failing = queue.run('agent-a', async () => {
      throw new Error('refused');
    });
    const throwingSync = queue.run('agent-a', () => {
      throw new Error('thrown before any await');
    });
    const next = queue.run('agent-a', async () => 'next');
    await expect(failing).rejects.toThrow('refused');
    await expect(throwingSync).rejects.toThrow('thrown before any await');
    await expect(next).resolves.toBe('next');
  });

  it('forgets an agent once its queue is empty, so it holds only busy agents', async () => {
    const queue = new AgentQueue();
    const log: string[] = [];
    const held = gate(log, 'a1');
    const pending = queue.run('agent-a', held.task);
    await Promise.all(Array.from({ length: 100 }, (_, i) => queue.run(`agent-${i}`, async () => i)));
    await settle();
    expect(queue.busy).toBe(1);
    held.release();
    await pending;
    await settle();
    expect(queue.busy).toBe(0);
    await expect(queue.run('agent-a', async () => 'again')).resolves.toBe('again');
  });
});
