import type { Checkpoint } from './checkpoint';

/**
 * The server checkpoints a live subscription reports (EventStoreDB's filtered $all checkpoints,
 * ADR 0043), kept until the runner has applied every event handed out before each, then saved
 * as the row's resume point: a restarted runner subscribes after it, so the server does not scan
 * again the filtered-out events it already passed. A checkpoint is a resume point only: it never
 * moves the row's position (the last event applied), and it is saved only once the stored
 * position covers the last event handed out before it, so resuming after it skips nothing that
 * was not applied. One save at a time; a newer ready checkpoint replaces a waiting one.
 */
export class ResumePoints {
  /** Checkpoints in arrival order, each with the last event position handed out before it. */
  private waiting: Array<{ resume: bigint; covers: bigint }> = [];
  private saving: Promise<void> | null = null;

  constructor(
    private readonly checkpoint: Checkpoint,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    checkpoint.onMove(() => this.flush());
  }

  /** A checkpoint at `resume`, told after the subscription handed out events up to `covers`. */
  offer(resume: bigint, covers: bigint): void {
    if (resume <= this.checkpoint.position) return;
    this.waiting.push({ resume, covers });
    this.flush();
  }

  /** A new subscription: what the old one reported is dropped (the new one reports again). */
  reset(): void {
    this.waiting = [];
  }

  /** The runner stops: forgets what waits and lets a save under way finish. */
  async settle(): Promise<void> {
    this.waiting = [];
    await this.saving;
  }

  /** Saves the newest checkpoint whose preceding events are applied (by this process's view). */
  private flush(): void {
    if (this.saving) return;
    const applied = this.checkpoint.position;
    let ready: { resume: bigint; covers: bigint } | undefined;
    while (this.waiting.length > 0 && this.waiting[0].covers <= applied) ready = this.waiting.shift();
    if (!ready || ready.resume <= applied) return;
    const { resume, covers } = ready;
    this.saving = this.checkpoint
      .saveResume(resume, covers)
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.saving = null;
        if (this.waiting.length > 0) this.flush();
      });
  }
}
