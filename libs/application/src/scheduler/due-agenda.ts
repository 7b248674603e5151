/**
 * When each agent next needs the scheduler because of time alone (a timer, a lease, a
 * recheck). One timer for the soonest entry, re-armed as entries change: an agent with
 * nothing due costs nothing.
 *
 * The entries are a binary min-heap ordered by deadline, with lazy deletion: `due` holds each
 * agent's current deadline, the heap may also hold superseded ones, which are dropped when they
 * reach the top (and compacted away when they outnumber the live ones). A change costs
 * O(log n); firing costs O(log n) per agent handed over.
 */
export class DueAgenda {
  private readonly due = new Map<string, number>();
  private heap: Array<{ at: number; agentId: string }> = [];
  private timer: NodeJS.Timeout | null = null;
  private armedFor: number | null = null;

  constructor(
    private readonly onDue: (agentIds: string[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  set(agentId: string, dueAt: string | null): void {
    if (dueAt === null) this.due.delete(agentId);
    else this.put(agentId, Date.parse(dueAt));
    this.arm();
  }

  /**
   * Keeps the earlier of the agent's deadline and `dueAt` (a deadline read from the read model,
   * which may lag what this worker computed: an early evaluation is harmless, a late one is not).
   */
  offer(agentId: string, dueAt: string): void {
    const at = Date.parse(dueAt);
    const current = this.due.get(agentId);
    if (current !== undefined && current <= at) return;
    this.put(agentId, at);
    this.arm();
  }

  /** Drops the entries of the agents `drop` names (another replica now owns them): O(n), on a rebalance only. */
  forget(drop: (agentId: string) => boolean): void {
    for (const agentId of [...this.due.keys()]) if (drop(agentId)) this.due.delete(agentId);
    this.compact();
    this.arm();
  }

  /** The agent's deadline (ms since the epoch), or undefined. */
  dueAt(agentId: string): number | undefined {
    return this.due.get(agentId);
  }

  size(): number {
    return this.due.size;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }

  private put(agentId: string, at: number): void {
    if (this.due.get(agentId) === at) return;
    this.due.set(agentId, at);
    this.push({ at, agentId });
    if (this.heap.length > 2 * this.due.size + 64) this.compact();
  }

  /** The soonest live entry (superseded ones on top are dropped), or null. */
  private peek(): { at: number; agentId: string } | null {
    while (this.heap.length > 0) {
      const top = this.heap[0];
      if (this.due.get(top.agentId) === top.at) return top;
      this.pop();
    }
    return null;
  }

  private arm(): void {
    const soonest = this.peek()?.at ?? null;
    if (soonest === this.armedFor) return;
    this.stop();
    if (soonest === null) return;
    // setTimeout caps at ~24.8 days; a later deadline simply re-arms when it fires.
    const delay = Math.min(Math.max(0, soonest - this.now()), 2 ** 31 - 1);
    this.armedFor = soonest;
    this.timer = setTimeout(() => this.fire(), delay);
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = null;
    this.armedFor = null;
    const now = this.now();
    const ready: string[] = [];
    for (let top = this.peek(); top !== null && top.at <= now; top = this.peek()) {
      this.pop();
      this.due.delete(top.agentId);
      ready.push(top.agentId);
    }
    this.arm();
    if (ready.length > 0) this.onDue(ready);
  }

  /** Rebuilds the heap from the live entries only (O(n)). */
  private compact(): void {
    this.heap = [...this.due].map(([agentId, at]) => ({ agentId, at }));
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private push(entry: { at: number; agentId: string }): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    this.down(0);
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && before(heap[left], heap[least])) least = left;
      if (right < heap.length && before(heap[right], heap[least])) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least], heap[i]];
      i = least;
    }
  }
}

/** Heap order: the earlier deadline, then the agent id (agents due together are handed over in id order). */
function before(a: { at: number; agentId: string }, b: { at: number; agentId: string }): boolean {
  return a.at < b.at || (a.at === b.at && a.agentId < b.agentId);
}
