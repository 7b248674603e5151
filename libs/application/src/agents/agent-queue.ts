/**
 * One queue per agent inside a process: the writes of one agent run one after the other, in
 * the order they were asked for, while other agents' writes run beside them. So the writers of
 * one process never race each other on an agent stream (only other processes can), and a slow
 * agent holds up no one else.
 *
 * An agent's entry lives only while it has work queued: the last task to finish removes it, so
 * the map holds the busy agents, never every agent ever written.
 */
export class AgentQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every task queued before it for `key` has settled; its result or error is the caller's. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous ? previous.then(task) : new Promise<T>((resolve) => resolve(task()));
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** How many agents have work queued or running now. */
  get busy(): number {
    return this.tails.size;
  }
}
