import { existsSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { PlanArtifactStore, PlanBodies, planHash, planHashesOf, planHashHex, type PlanBodySql } from '@app/application';
import { CliError, EXIT } from '../cli-io';

/** Where an export keeps plan bodies: `plans/sha256/<hex>`, the bytes exactly as stored. */
const PLANS_DIR = ['plans', 'sha256'];

/**
 * Writes the body of every plan hash the events name into the export directory (from Postgres,
 * or the older `.plan-versions` files of this deployment's AGENT_HOME); returns how many were
 * written and the hashes this deployment does not hold.
 */
export async function exportPlanBodies(
  dir: string,
  events: ReadonlyArray<{ type: string; data: unknown }>,
  sql: PlanBodySql,
  agentHome: string,
): Promise<{ written: number; missing: string[] }> {
  const plans = new PlanArtifactStore(agentHome, new PlanBodies(sql));
  const target = join(dir, ...PLANS_DIR);
  let written = 0;
  const missing: string[] = [];
  for (const hash of planHashesOf(events)) {
    const bytes = await plans.versionBytes(hash);
    if (bytes === null) {
      missing.push(hash);
      continue;
    }
    if (written === 0) await fs.mkdir(target, { recursive: true });
    await fs.writeFile(join(target, planHashHex(hash) as string), bytes);
    written += 1;
  }
  return { written, missing };
}

/** The plan bodies of an export directory, each checked against its name (none: an older export). */
export async function readPlanBodies(dir: string): Promise<Buffer[]> {
  const source = join(dir, ...PLANS_DIR);
  if (!existsSync(source)) return [];
  const bodies: Buffer[] = [];
  for (const name of (await fs.readdir(source)).sort()) {
    const bytes = await fs.readFile(join(source, name));
    if (planHash(bytes) !== `sha256:${name}`)
      throw new CliError(EXIT.unreadable, `${join(source, name)}: the body does not hash to its name`);
    bodies.push(bytes);
  }
  return bodies;
}

/** Keeps the bodies in this deployment's plan_bodies (insert-if-absent), before any event names them. */
export async function restorePlanBodies(bodies: Buffer[], sql: PlanBodySql): Promise<void> {
  const store = new PlanBodies(sql);
  for (const bytes of bodies) await store.put(bytes);
}
