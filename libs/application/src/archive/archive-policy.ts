import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
import { type ArchiveWorkItems, renderArchiveWorkItemsReply } from '@app/domain';
import { CLOCK, type Clock, LOGGER, type Logger } from '@app/core';
import { WORK_ITEM_QUERIES, type WorkItemQueries } from '@app/read-models';
import { AgentCommandService, type CommandEnvelope } from '../agents/agent-command.service';
import { SCHEDULER_CALLER } from '../scheduler/scheduler-step.service';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const HOUR_MS = 3_600_000;
/** Agents archived per pass; the next pass takes the rest. */
const AGENTS_PER_PASS = 100;

/**
 * ARCHIVE_COMPLETED_AFTER: `<n><unit>` (`ms`, `s`, `m`, `h`, `d`; e.g. `30d`), at least one
 * second, or `off`. The milliseconds, null for off, or the problem as a sentence.
 */
export function parseArchiveCompletedAfter(raw: string): number | null | string {
  const value = raw.trim();
  if (value === 'off' || value === '') return null;
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(value);
  const ms = match ? Number(match[1]) * UNITS[match[2]] : NaN;
  if (!Number.isSafeInteger(ms) || ms < 1_000)
    return `must be a duration of at least 1s such as 30d, 12h or 90m (units ms, s, m, h, d), or off; got '${raw}'`;
  return ms;
}

/** The cut-off of a pass at `now`: `now - after`, down to the hour, so the passes of one hour repeat one command. */
export function archiveCutOff(nowMs: number, afterMs: number): string {
  const cut = nowMs - afterMs;
  return new Date(afterMs >= HOUR_MS ? cut - (cut % HOUR_MS) : cut).toISOString();
}

/**
 * The automatic archive policy (ARCHIVE_COMPLETED_AFTER, off by default), run by the scheduler
 * worker's process: each pass asks the read model which agents hold completed items older than
 * the cut-off that are not archived yet (a partial index: agents with nothing to archive cost
 * nothing) and records ArchiveWorkItems for each, as the scheduler, under a command id derived
 * from the cut-off (a pass repeated within the hour is a repeat; an agent with nothing to
 * archive records nothing).
 */
@Injectable()
export class ArchivePolicy implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly agents: AgentCommandService,
    @Inject(WORK_ITEM_QUERIES) private readonly queries: WorkItemQueries,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(APPLICATION_SETTINGS) private readonly settings?: ApplicationSettings,
  ) {}

  get afterMs(): number | null {
    return this.settings?.archiveCompletedAfterMs ?? null;
  }

  onApplicationBootstrap(): void {
    const after = this.afterMs;
    if (after === null) return;
    const every = Math.min(Math.max(Math.floor(after / 10), 1_000), HOUR_MS);
    const pass = () => {
      this.running ??= this.runOnce()
        .catch((error) => this.logger.error({ err: error, component: 'archive' }, 'archive pass failed'))
        .finally(() => (this.running = null));
    };
    this.timer = setInterval(pass, every);
    this.timer.unref();
    pass();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass; the agents it archived something for. */
  async runOnce(): Promise<string[]> {
    const after = this.afterMs;
    if (after === null) return [];
    const cutOff = archiveCutOff(this.clock.now().getTime(), after);
    const archived: string[] = [];
    for (const agentId of await this.queries.agentsToArchive(cutOff, AGENTS_PER_PASS)) {
      const envelope: CommandEnvelope = {
        agentId,
        caller: SCHEDULER_CALLER,
        scope: 'scheduler',
        idempotencyKey: `archive:${cutOff}`,
      };
      const command: ArchiveWorkItems = {
        type: 'ArchiveWorkItems',
        data: { completed_before: cutOff },
        meta: this.agents.meta(envelope),
      };
      const reply = await this.agents.run(envelope, command, renderArchiveWorkItemsReply);
      if (reply.archived) archived.push(agentId);
    }
    if (archived.length > 0)
      this.logger.info({ component: 'archive', cut_off: cutOff, agents: archived.length }, 'archived completed items');
    return archived;
  }
}
