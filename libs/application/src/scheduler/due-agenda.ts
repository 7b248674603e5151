/**
 * When each agent next needs the scheduler because of time alone (a timer, a lease, a
 * recheck). One timer for the soonest entry, re-armed as entries change: an agent with
 * nothing due costs nothing.
 */
export class DueAgenda {
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private armedFor: number | null = null;

  constructor(
    private readonly onDue: (agentIds: string[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  set(agentId: string, dueAt: string | null): void {
    if (dueAt === null) this.due.delete(agentId);
    else this.due.set(agentId, Date.parse(dueAt));
    this.arm();
  }

  /** Drops the entries of the agents `drop` names (another replica now owns them). */
  forget(drop: (agentId: string) => boolean): void {
    for (const agentId of [...this.due.keys()]) if (drop(agentId)) this.due.delete(agentId);
    this.arm();
  }

  size(): number {
    return this.due.size;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }

  private arm(): void {
    let soonest: number | null = null;
    for (const at of this.due.values()) if (soonest === null || at < soonest) soonest = at;
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
    const ready = [...this.due].filter(([, at]) => at <= now).map(([agentId]) => agentId);
    for (const agentId of ready) this.due.delete(agentId);
    this.arm();
    if (ready.length > 0) this.onDue(ready);
  }
}
