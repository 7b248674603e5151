import { type DecisionRecord, type DecisionReplay, type DecisionReplayEntry, replayDecisions } from '@app/domain';
import { expectArgs, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../cli-io';
import { type AgentStreamSource, loadAgentStream } from './replay-source';

export const REPLAY_USAGE = 'replay <agent> | --from-dir <dir> [--json]';
/** Exit code when a recorded decision is not reproduced (documented in --help and docs/decisions/0007). */
export const EXIT_REPLAY_MISMATCH = 8;

/**
 * Folds the agent's stream and recomputes every SchedulerDecisionRecorded on the state just
 * before it, at its recorded `at`: ✓ when the scheduler decides the same today, ✗ and the fields
 * that differ otherwise. Exit 0 when all match, 8 when any does not.
 */
export async function replayCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, REPLAY_USAGE, { min: 0, max: 1 }, ['from-dir', 'json']);
  const source = await loadAgentStream(args, io, REPLAY_USAGE);
  const replay = replayDecisions(source.events);
  io.stdout(
    args.flags.json === true ? `${JSON.stringify(replayJson(source, replay), null, 2)}\n` : replayText(source, replay),
  );
  return replay.ok ? EXIT.ok : EXIT_REPLAY_MISMATCH;
}

const revisionOf = (source: AgentStreamSource, entry: DecisionReplayEntry): string =>
  source.stored[entry.index].revision.toString();

export function replayJson(source: AgentStreamSource, replay: DecisionReplay) {
  return {
    agent_id: source.agentId,
    source: source.origin,
    events: source.stored.length,
    decisions: replay.entries.length,
    matches: replay.entries.length - replay.mismatches.length,
    mismatches: replay.mismatches.length,
    ok: replay.ok,
    entries: replay.entries.map((entry) => ({
      revision: revisionOf(source, entry),
      at: entry.at,
      matches: entry.matches,
      differences: entry.differences,
      recorded: entry.recorded,
      recomputed: entry.recomputed,
    })),
  };
}

const headline = (d: DecisionRecord): string => {
  const links = (['message_id', 'work_item_id', 'task_id'] as const)
    .filter((k) => d[k] !== null)
    .map((k) => `${k.replace('_id', '')} ${d[k]}`);
  return [`${d.kind} ${d.reason}`, ...links, ...(d.idempotency_key ? [`key ${d.idempotency_key}`] : [])].join(', ');
};

/** One line per field that differs; evidence as the lines only one side has. */
function differenceLines(entry: DecisionReplayEntry): string[] {
  const { recorded, recomputed } = entry;
  if (recorded === null)
    return ['    the recorded decision is unreadable (no kind)', `    recomputed: ${headline(recomputed)}`];
  return entry.differences.flatMap((field) => {
    if (field !== 'evidence') {
      const key = field as Exclude<keyof DecisionRecord, 'evidence'>;
      return [`    ${field}: recorded ${JSON.stringify(recorded[key])}, recomputed ${JSON.stringify(recomputed[key])}`];
    }
    const only = (a: string[], b: string[]) => a.filter((line) => !b.includes(line));
    const lost = only(recorded.evidence, recomputed.evidence).map((line) => `      - ${line}   (recorded only)`);
    const found = only(recomputed.evidence, recorded.evidence).map((line) => `      + ${line}   (recomputed only)`);
    return [
      '    evidence:',
      ...lost,
      ...found,
      ...(lost.length + found.length === 0 ? ['      (same lines, another order)'] : []),
    ];
  });
}

export function replayText(source: AgentStreamSource, replay: DecisionReplay): string {
  const lines = [`agent ${source.agentId}: ${source.stored.length} events from ${source.origin}`];
  for (const entry of replay.entries) {
    const shown = entry.recorded ? headline(entry.recorded) : '(unreadable recorded decision)';
    lines.push(`${entry.matches ? '✓' : '✗'} r${revisionOf(source, entry)}  ${entry.at}  ${shown}`);
    if (!entry.matches) lines.push(...differenceLines(entry));
  }
  const matches = replay.entries.length - replay.mismatches.length;
  const verdict =
    replay.entries.length === 0
      ? ' (no recorded decisions to compare)'
      : replay.ok
        ? ': every recorded decision is reproduced'
        : ': the scheduler no longer decides what was recorded';
  lines.push(
    `${replay.entries.length} decisions, ${matches} match, ${replay.mismatches.length} mismatch${replay.mismatches.length === 1 ? '' : 'es'}${verdict}`,
  );
  return `${lines.join('\n')}\n`;
}
