import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/**
 * `<RUNTIME_DATA_DIR>/service.json`: written by a service that started the embedded Postgres
 * of that data directory (it holds the directory's lock), removed when it stops. The CLI reads
 * it to use that server instead of starting its own (docs/decisions/0007).
 * NOTE: stored format, shared by the service and the CLI.
 */
export const SERVICE_ADDRESS_FILE = 'service.json';

export interface ServiceAddress {
  pid: number;
  /** Connection string of the embedded Postgres the service runs. */
  postgres_url: string;
  role: string;
  started_at: string;
}

export const serviceAddressPath = (dataDir: string): string => join(dataDir, SERVICE_ADDRESS_FILE);

/** Written atomically (temp file + rename), readable by the owner only: it names a database login. */
export async function writeServiceAddress(dataDir: string, address: ServiceAddress): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  const path = serviceAddressPath(dataDir);
  const temp = `${path}.${process.pid}.tmp`;
  await fs.writeFile(temp, `${JSON.stringify(address, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(temp, path);
}

/** Removes the file if it is this process's own (a newer service may have replaced it). */
export async function removeServiceAddress(dataDir: string, pid: number = process.pid): Promise<void> {
  const current = await readServiceAddress(dataDir);
  if (current?.pid === pid) await fs.rm(serviceAddressPath(dataDir), { force: true });
}

/** The address, or null when there is no (readable, well-formed) file. */
export async function readServiceAddress(dataDir: string): Promise<ServiceAddress | null> {
  let text: string;
  try {
    text = await fs.readFile(serviceAddressPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<ServiceAddress>;
    if (typeof value.pid !== 'number' || typeof value.postgres_url !== 'string') return null;
    return {
      pid: value.pid,
      postgres_url: value.postgres_url,
      role: String(value.role ?? 'unknown'),
      started_at: String(value.started_at ?? ''),
    };
  } catch {
    return null;
  }
}

/** True when a process with this pid exists (signal 0 probes without signalling). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
