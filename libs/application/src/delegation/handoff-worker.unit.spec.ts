import { eventually, fakeEventStoreDb, type FakeEsdbServer } from '@app/event-store/testing';
import type { HandoffCheckpointStore } from '@app/read-models';
import type { DelegationHandoff } from './delegation-handoff';
import { HandoffWorker } from './handoff-worker';

/**
 * The hand-off keeps the server's checkpoints too (ADR 0043), on the EventStoreDB adapter with
 * its transport faked: a restart resumes after the last one instead of making the server scan
 * the filtered-out tail again, and none is saved before the events ahead of it are handled.
 */
const WINDOW = 8;

class MemoryCheckpoints implements HandoffCheckpointStore {
  position: bigint | null = null;
  async load(): Promise<bigint | null> {
    return this.position;
  }
  async save(_: string, position: bigint): Promise<void> {
    if (this.position === null || position > this.position) this.position = position;
  }
}

function systemTail(server: FakeEsdbServer, count: number): void {
  for (let i = 0; i < count; i++) server.write('$stats-127.0.0.1:2113', '$statsCollected');
}

const logger = { error: () => undefined };

describe('the hand-off worker on EventStoreDB keeps the server checkpoints', () => {
  it('resumes after the last server checkpoint, saved only once the events before it are handled', async () => {
    const { server, store } = await fakeEventStoreDb({ searchWindow: WINDOW }, { streamPrefixes: ['agent-'] });
    const completed = server.write('agent-a', 'WorkItemCompleted', { work_item_id: 'w-1' });
    systemTail(server, 100);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const settle = jest.fn(() => gate);
    const checkpoints = new MemoryCheckpoints();
    const worker = new HandoffWorker(store, { settle } as unknown as DelegationHandoff, checkpoints, logger);
    await worker.start();
    await eventually(
      'the server scanned the tail',
      async () => server.calls[0]?.scanned ?? 0,
      (n) => n >= 101,
    );
    // The settling of w-1's completion is under way: nothing past it may be saved.
    expect(settle).toHaveBeenCalledWith('a');
    expect(checkpoints.position).toBeNull();
    release();
    const last = server.log[Math.floor(server.log.length / WINDOW) * WINDOW - 1].position;
    await eventually(
      'the last checkpoint saved',
      async () => checkpoints.position,
      (p) => p === last,
    );
    expect(last).toBeGreaterThan(completed.position);
    await worker.stop();

    const again = new HandoffWorker(store, { settle } as unknown as DelegationHandoff, checkpoints, logger);
    await again.start();
    const resumed = server.calls.filter((c) => c.kind === 'subscribeToAll')[1];
    expect(resumed.from).toBe(last);
    await eventually(
      'the resumed scan',
      async () => resumed.scanned,
      (n) => n === server.log.length - 1 - server.log.findIndex((r) => r.position === last),
    );
    expect(settle).toHaveBeenCalledTimes(1);
    await again.stop();
    await store.close();
  });
});
