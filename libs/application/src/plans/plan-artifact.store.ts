import { type BigIntStats, promises as fs, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { PlanArtifact } from '@app/domain';
import { ApiError } from '@app/core';
import { type PlanBodies, planHash, planHashHex } from './plan-bodies';
import { planFilePath } from './plan-paths';

export const PREVIEW_CHARS = 1600;
export const PLAN_STORE = Symbol('PLAN_STORE');
const KEPT_CACHE = 10_000;
/** A file changed this recently may change again within one tick of the file system's clock: never cached. */
const RACY_MS = 2_000;

/**
 * Plan files under the agent home: `<AGENT_HOME>/<agent_id>/work-items/<work_item_id>/plan.md`,
 * the agent's working copy, edited directly by agents (every read and write looks at the file, so
 * an edit by hand is seen and recorded as a refresh). Every distinct body is also kept
 * content-addressed by hash in Postgres (PlanBodies, shared by all replicas; without it, as in
 * unit specs, under `<AGENT_HOME>/.plan-versions/sha256/<hex>`), before the event naming it is
 * appended. A working copy missing on this replica (an imported agent, another replica's home)
 * is restored from there, with its recorded date.
 * Paths are built only from validated ids and checked to stay inside the agent home. Descriptors
 * name the file relative to the agent's home only (events hold nothing machine-specific);
 * views add the absolute path under this replica's home (plan-paths.ts).
 */
export class PlanArtifactStore {
  /** The agent home, resolved. */
  readonly root: string;
  private readonly kept = new Set<string>();
  /** The last descriptor of each working copy, with the file's identity when it was read (see `describe`). */
  private readonly described = new Map<string, { identity: string; descriptor: PlanArtifact }>();

  constructor(
    agentHome: string,
    private readonly bodies: PlanBodies | null = null,
  ) {
    this.root = resolve(agentHome);
  }

  /** Writes the seed (or an empty file) unless the file exists; returns the descriptor. */
  async create(agentId: string, workItemId: string, seed: string | undefined): Promise<PlanArtifact> {
    const path = this.planPath(agentId, workItemId);
    await fs.mkdir(dirname(path), { recursive: true });
    await fs.writeFile(path, seed ?? '', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    return this.describe(agentId, workItemId);
  }

  /** Replaces the body (the PUT route for hosts that cannot reach the agent home). */
  async replace(agentId: string, workItemId: string, body: string): Promise<PlanArtifact> {
    const path = this.planPath(agentId, workItemId);
    await fs.mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    await fs.writeFile(temp, body);
    await fs.rename(temp, path);
    return this.describe(agentId, workItemId);
  }

  /**
   * The working copy's body (restored from the store first when missing and `stored` is known), or
   * null without `stored`. 409 `plan_missing` when `stored` names a body that is nowhere.
   */
  async read(agentId: string, workItemId: string, stored?: PlanArtifact): Promise<string | null> {
    const bytes = await this.workingCopy(agentId, workItemId, stored);
    if (bytes === null && stored !== undefined) throw planMissing(agentId, workItemId, stored);
    return bytes === null ? null : bytes.toString('utf8');
  }

  /**
   * The descriptor as the file is now (a missing file is restored from the body `stored`, the
   * recorded descriptor, names), and its body kept by hash. Without `stored` a missing file reads
   * as empty (a plan just created); with it, a body that is nowhere is 409 `plan_missing`, never
   * an empty plan (which would then be hashed and recorded).
   */
  async describe(agentId: string, workItemId: string, stored?: PlanArtifact): Promise<PlanArtifact> {
    const path = this.planPath(agentId, workItemId);
    // Every write command describes the file: one stat (synchronous: a metadata lookup, no read)
    // says whether it is still the file last described (same inode, size, mtime and ctime to the
    // nanosecond; any write changes the ctime), and then its descriptor is the one computed then.
    const before = identityOf(statSync(path, { bigint: true, throwIfNoEntry: false }));
    const known = this.described.get(path);
    if (before !== null && known?.identity === before) return { ...known.descriptor };
    const found = await this.workingCopy(agentId, workItemId, stored);
    if (found === null && stored !== undefined) throw planMissing(agentId, workItemId, stored);
    const bytes = found ?? Buffer.alloc(0);
    const stat = await fs.stat(path).catch(() => null);
    const descriptor = this.descriptorOf(agentId, workItemId, bytes, (stat?.mtime ?? new Date(0)).toISOString());
    await this.keepVersion(bytes);
    const after = statSync(path, { bigint: true, throwIfNoEntry: false });
    // Kept only when the file did not change while it was read and its last change is older than
    // the file system clock's granularity (a write in the same tick could leave the same stat).
    if (before !== null && identityOf(after) === before && Date.now() - Number(after!.ctimeMs) > RACY_MS) {
      if (this.described.size >= KEPT_CACHE) this.described.clear();
      this.described.set(path, { identity: before, descriptor: { ...descriptor } });
    }
    return descriptor;
  }

  /** The descriptor a body would have, without touching the disk (for dry runs). */
  descriptorOf(agentId: string, workItemId: string, body: Buffer | string, updatedAt: string): PlanArtifact {
    const path = this.planPath(agentId, workItemId);
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const chars = Array.from(bytes.toString('utf8'));
    return {
      relative_path: relative(join(this.root, agentId), path).split(sep).join('/'),
      hash: planHash(bytes),
      byte_size: bytes.length,
      updated_at: updatedAt,
      preview: chars.slice(0, PREVIEW_CHARS).join(''),
      preview_complete: chars.length <= PREVIEW_CHARS,
    };
  }

  /** A stored version of a plan body by its `sha256:<hex>` hash (Postgres, then the older files), or null. */
  async version(hash: string): Promise<string | null> {
    return (await this.versionBytes(hash))?.toString('utf8') ?? null;
  }

  /** The bytes of a stored version, or null. */
  async versionBytes(hash: string): Promise<Buffer | null> {
    const hex = planHashHex(hash);
    if (hex === null) return null;
    const kept = this.bodies ? await this.bodies.get(hash) : null;
    return kept ?? fs.readFile(this.versionPath(hex)).catch(() => null);
  }

  /** The file's bytes; a missing file is first restored from the body `stored` names (null when none). */
  private async workingCopy(agentId: string, workItemId: string, stored?: PlanArtifact): Promise<Buffer | null> {
    const path = this.planPath(agentId, workItemId);
    const bytes = await readOrNull(path);
    if (bytes !== null || stored === undefined) return bytes;
    // An empty plan needs no stored body (older runs kept none for it).
    const body = stored.byte_size === 0 ? Buffer.alloc(0) : await this.versionBytes(stored.hash);
    if (body === null) return null;
    await fs.mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.restore.tmp`;
    await fs.writeFile(temp, body);
    const when = new Date(stored.updated_at);
    if (!Number.isNaN(when.getTime())) await fs.utimes(temp, when, when);
    // The agent may have written the file meanwhile: its copy wins.
    await fs.link(temp, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await fs.unlink(temp).catch(() => undefined);
    return readOrNull(path);
  }

  private async keepVersion(bytes: Buffer): Promise<void> {
    if (this.bodies) {
      // Reads describe the file too: a body this process kept already costs no round trip.
      const hash = planHash(bytes);
      if (this.kept.has(hash)) return;
      await this.bodies.put(bytes);
      if (this.kept.size >= KEPT_CACHE) this.kept.clear();
      this.kept.add(hash);
      return;
    }
    const path = this.versionPath(planHashHex(planHash(bytes)) as string);
    await fs.mkdir(dirname(path), { recursive: true });
    await fs.writeFile(path, bytes, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }

  private versionPath(hex: string): string {
    return join(this.root, '.plan-versions', 'sha256', hex.slice(0, 2), hex);
  }

  private planPath(agentId: string, workItemId: string): string {
    return planFilePath(this.root, agentId, workItemId);
  }
}

/** What identifies one version of a file without reading it (null: no file). */
function identityOf(stat: BigIntStats | undefined): string | null {
  return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : null;
}

/** The recorded plan's body is neither in the working copy nor in any body store. */
function planMissing(agentId: string, workItemId: string, stored: PlanArtifact): ApiError {
  return new ApiError(
    'plan_missing',
    `the plan of work item ${workItemId} is missing: its working copy is gone and no store holds its recorded body (replace it with PUT .../plan)`,
    { agent_id: agentId, work_item_id: workItemId, hash: stored.hash, relative_path: stored.relative_path },
  );
}

async function readOrNull(path: string): Promise<Buffer | null> {
  return fs.readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}
