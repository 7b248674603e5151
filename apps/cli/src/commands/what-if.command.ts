import { existsSync, promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import {
  type DecisionRecord,
  parseSchedulerPolicy,
  type SchedulerSettings,
  type WhatIf,
  type WhatIfEntry,
  whatIfDecisions,
} from '@app/domain';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { type AgentStreamSource, loadAgentStream } from './replay-source';

export const WHAT_IF_USAGE = 'what-if <agent> | --from-dir <dir> --policy <file.json> [--json]';

/**
 * At each recorded decision point (the state folded just before its SchedulerDecisionRecorded, at
 * its recorded `at`), the decision under the runtime's settings beside the decision under the
 * policy's (docs/decisions/0037): the points where they differ, side by side, and a count.
 * Exit 0 whatever differs; 2 for a missing or invalid policy (every error named).
 */
export async function whatIfCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, WHAT_IF_USAGE, { min: 0, max: 1 }, ['from-dir', 'json', 'policy']);
  const file = args.flags.policy;
  if (typeof file !== 'string' || file === '')
    throw new CliError(EXIT.usage, `--policy <file.json> is required\nusage: ${WHAT_IF_USAGE}`);
  const settings = await readPolicy(resolve(io.cwd, file));
  const source = await loadAgentStream(args, io, WHAT_IF_USAGE);
  const result = whatIfDecisions(source.events, settings);
  io.stdout(
    args.flags.json === true
      ? `${JSON.stringify(whatIfJson(source, file, settings, result), null, 2)}\n`
      : whatIfText(source, file, result),
  );
  return EXIT.ok;
}

async function readPolicy(path: string): Promise<SchedulerSettings> {
  if (!existsSync(path)) throw new CliError(EXIT.usage, `policy file ${path} not found`);
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(path, 'utf8'));
  } catch (error) {
    throw new CliError(EXIT.usage, `policy file ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = parseSchedulerPolicy(value);
  if (!parsed.ok)
    throw new CliError(
      EXIT.usage,
      `policy file ${path} is invalid:\n${parsed.errors.map((e) => `  - ${e}`).join('\n')}\n(the format: docs/api.md, "CLI: what-if")`,
    );
  return parsed.settings;
}

const revisionOf = (source: AgentStreamSource, entry: WhatIfEntry): string =>
  source.stored[entry.index].revision.toString();

export function whatIfJson(source: AgentStreamSource, file: string, settings: SchedulerSettings, result: WhatIf) {
  return {
    agent_id: source.agentId,
    source: source.origin,
    policy: file,
    settings,
    decisions: result.entries.length,
    differing: result.differing.length,
    not_reproduced: result.not_reproduced,
    entries: result.differing.map((entry) => ({
      revision: revisionOf(source, entry),
      at: entry.at,
      differences: entry.differences,
      recorded: entry.recorded,
      current: entry.current,
      policy: entry.policy,
      reproduced: entry.reproduced,
    })),
  };
}

const cell = (value: unknown): string =>
  value === null ? '-' : typeof value === 'string' ? value : JSON.stringify(value);

/** One row per field that differs (evidence as the lines only one side has), in two columns. */
function sideBySide(entry: WhatIfEntry): string[] {
  const { current, policy } = entry;
  const rows: [string, string, string][] = [['', 'runtime settings', 'policy']];
  for (const field of entry.differences) {
    if (field === 'evidence') continue;
    const key = field as Exclude<keyof DecisionRecord, 'evidence'>;
    rows.push([field, cell(current[key]), cell(policy[key])]);
  }
  const width = Math.max(...rows.map(([, left]) => left.length), 16);
  const lines = rows.map(([field, left, right]) => `    ${field.padEnd(16)} ${left.padEnd(width)}   ${right}`);
  if (entry.differences.includes('evidence')) {
    const only = (a: string[], b: string[]) => a.filter((line) => !b.includes(line));
    lines.push(
      '    evidence:',
      ...only(current.evidence, policy.evidence).map((line) => `      - ${line}   (runtime settings only)`),
      ...only(policy.evidence, current.evidence).map((line) => `      + ${line}   (policy only)`),
    );
  }
  return lines;
}

export function whatIfText(source: AgentStreamSource, file: string, result: WhatIf): string {
  const lines = [`agent ${source.agentId}: ${source.stored.length} events from ${source.origin}; policy ${file}`];
  for (const entry of result.differing) {
    const note = entry.reproduced
      ? ''
      : '   (the recorded decision is not reproduced by the runtime settings: see replay)';
    lines.push(`≠ r${revisionOf(source, entry)}  ${entry.at}${note}`, ...sideBySide(entry));
  }
  const n = result.entries.length;
  const verdict =
    n === 0
      ? ' (no recorded decisions to evaluate)'
      : result.differing.length === 0
        ? ': the policy decides as the runtime settings at every recorded point'
        : '';
  const unreproduced =
    result.not_reproduced > 0 ? `, ${result.not_reproduced} not reproduced by the runtime settings` : '';
  lines.push(
    `${n} decision point${n === 1 ? '' : 's'}, ${result.differing.length} would differ${unreproduced}${verdict}`,
  );
  return `${lines.join('\n')}\n`;
}
