import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isValidId, type PlanArtifact } from '@app/domain';

export const PREVIEW_CHARS = 1600;
export const PLAN_STORE = Symbol('PLAN_STORE');

/**
 * Plan files under the agent home: `<AGENT_HOME>/<agent_id>/work-items/<work_item_id>/plan.md`,
 * edited directly by agents. Every distinct body is also kept content-addressed by hash
 * (`<AGENT_HOME>/.plan-versions/sha256/<hex>`) so an audit can show each version.
 * Paths are built only from validated ids and checked to stay inside the agent home.
 */
export class PlanArtifactStore {
  private readonly root: string;

  constructor(agentHome: string) {
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

  async read(agentId: string, workItemId: string): Promise<string | null> {
    return fs.readFile(this.planPath(agentId, workItemId), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
  }

  /** The descriptor as the file is now (a missing file reads as empty), and its body kept by hash. */
  async describe(agentId: string, workItemId: string): Promise<PlanArtifact> {
    const path = this.planPath(agentId, workItemId);
    const bytes = await fs.readFile(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return Buffer.alloc(0);
      throw error;
    });
    const stat = await fs.stat(path).catch(() => null);
    const descriptor = this.descriptorOf(agentId, workItemId, bytes, (stat?.mtime ?? new Date(0)).toISOString());
    await this.keepVersion(descriptor.hash.slice('sha256:'.length), bytes);
    return descriptor;
  }

  /** The descriptor a body would have, without touching the disk (for dry runs). */
  descriptorOf(agentId: string, workItemId: string, body: Buffer | string, updatedAt: string): PlanArtifact {
    const path = this.planPath(agentId, workItemId);
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const chars = Array.from(bytes.toString('utf8'));
    return {
      path,
      relative_path: relative(join(this.root, agentId), path).split(sep).join('/'),
      hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      byte_size: bytes.length,
      updated_at: updatedAt,
      preview: chars.slice(0, PREVIEW_CHARS).join(''),
      preview_complete: chars.length <= PREVIEW_CHARS,
    };
  }

  /** A stored version of a plan body by its `sha256:<hex>` hash, or null. */
  async version(hash: string): Promise<string | null> {
    const match = /^sha256:([0-9a-f]{64})$/.exec(hash);
    if (!match) return null;
    return fs.readFile(this.versionPath(match[1]), 'utf8').catch(() => null);
  }

  private async keepVersion(hex: string, bytes: Buffer): Promise<void> {
    const path = this.versionPath(hex);
    await fs.mkdir(dirname(path), { recursive: true });
    await fs.writeFile(path, bytes, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }

  private versionPath(hex: string): string {
    return join(this.root, '.plan-versions', 'sha256', hex.slice(0, 2), hex);
  }

  private planPath(agentId: string, workItemId: string): string {
    if (!isValidId(agentId) || !isValidId(workItemId))
      throw new Error(`refusing a plan path from invalid ids: ${agentId}/${workItemId}`);
    const path = resolve(this.root, agentId, 'work-items', workItemId, 'plan.md');
    if (!path.startsWith(this.root + sep)) throw new Error(`plan path escapes the agent home: ${path}`);
    return path;
  }
}
