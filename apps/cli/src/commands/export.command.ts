import { existsSync, promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportMeta, redactBodies, toJsonLines, AgentEventsReader } from '@app/application';
import { expectArgs, type ParsedArgs } from '../args';
import { CliError, EXIT, type CliIo } from '../cli-io';
import { cliConfig, withStores } from '../cli-run';
import { assertAgentId } from './agent-id';
import { exportPlanBodies } from './plan-files';

export const EXPORT_USAGE = 'export <agent> <dir> [--redact-bodies]';

/**
 * The agent's stream as a fixture directory: events.jsonl (as stored) + agent.json, and the plan
 * bodies its events name under plans/sha256/<hex> (not with --redact-bodies).
 */
export async function exportCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  expectArgs(args, EXPORT_USAGE, { min: 2, max: 2 }, ['redact-bodies']);
  const [agentId, target] = args.positionals;
  assertAgentId(agentId);
  const dir = resolve(io.cwd, target);
  for (const name of ['events.jsonl', 'agent.json']) {
    if (existsSync(join(dir, name)))
      throw new CliError(EXIT.conflict, `${join(dir, name)} exists: export into a new or empty directory`);
  }
  const redact = args.flags['redact-bodies'] === true;
  const agentHome = cliConfig(io).agentHome;
  const { stored, plans } = await withStores(io, async ({ pool, store }) => {
    const events = await new AgentEventsReader(store).whole(agentId);
    return { stored: events, plans: redact ? null : await exportPlanBodies(dir, events, pool, agentHome) };
  });
  const redacted = redact ? stored.map(redactBodies) : stored.map((event) => ({ event, redacted: 0 }));
  const events = redacted.map((r) => r.event);
  const count = redacted.reduce((sum, r) => sum + r.redacted, 0);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(join(dir, 'events.jsonl'), toJsonLines(events));
  const meta = exportMeta(agentId, events, new Date().toISOString(), redact ? count : null);
  await fs.writeFile(join(dir, 'agent.json'), `${JSON.stringify(meta, null, 2)}\n`);
  const note = redact
    ? `; ${count} body value(s) replaced by "[redacted]", plan bodies left out`
    : `; ${plans?.written ?? 0} plan bod${plans?.written === 1 ? 'y' : 'ies'}`;
  if (plans && plans.missing.length > 0)
    io.stderr(
      `warning: ${plans.missing.length} plan bod(ies) not held by this deployment: ${plans.missing.join(' ')}\n`,
    );
  io.stdout(
    `exported ${events.length} events of agent ${agentId} (revisions 0..${events.length - 1}) to ${dir}${note}\n`,
  );
  return EXIT.ok;
}
