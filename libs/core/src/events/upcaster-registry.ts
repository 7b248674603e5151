import type { EventMetadata } from '@app/event-store';

/*
 * Event schema evolution on the read path (docs/decisions/0007-audit-and-evolution.md).
 * A stored event carries `metadata.schema_version` (absent counts as 1). Upcasters lift the
 * stored JSON of one type one version at a time until the version the code writes today.
 */

export type EventData = Record<string, unknown>;

/** Lifts the data of `type` from version `from` to `from + 1`. Pure: returns a new object. */
export interface Upcaster {
  type: string;
  from: number;
  up(data: Readonly<EventData>): EventData;
}

/** Any stored event shape: a StoredEvent, a line of an export, a fixture sample. */
export interface VersionedEvent {
  type: string;
  data: EventData;
  metadata: EventMetadata;
  stream?: string;
  revision?: bigint | string;
}

/** The version of events stored before `schema_version` was written, and of every type without upcasters. */
export const BASE_SCHEMA_VERSION = 1;

/** The event cannot be read by this code: a newer or malformed version, or a gap in the chain. */
export class SchemaVersionError extends Error {
  readonly code = 'unknown_schema_version' as const;
  constructor(
    readonly eventType: string,
    readonly version: unknown,
    readonly current: number,
    reason: string,
    where = '',
  ) {
    super(
      `event ${eventType}${where} has schema_version ${JSON.stringify(version)}: ${reason} (this code reads up to version ${current})`,
    );
    this.name = 'SchemaVersionError';
  }
}

export class UpcasterRegistry {
  private readonly steps = new Map<string, Map<number, Upcaster>>();

  constructor(upcasters: readonly Upcaster[]) {
    for (const upcaster of upcasters) {
      const steps = this.steps.get(upcaster.type) ?? new Map<number, Upcaster>();
      if (steps.has(upcaster.from)) throw new Error(`two upcasters for ${upcaster.type} from version ${upcaster.from}`);
      steps.set(upcaster.from, upcaster);
      this.steps.set(upcaster.type, steps);
    }
    for (const [type, steps] of this.steps) assertContiguous(type, steps);
  }

  /** The version this code writes for `type` (and lifts every older stored version to). */
  currentVersion(type: string): number {
    const steps = this.steps.get(type);
    return steps ? Math.max(BASE_SCHEMA_VERSION, Math.max(...steps.keys()) + 1) : BASE_SCHEMA_VERSION;
  }

  /**
   * The event in the current schema of its type; the same object when it already is. The
   * metadata then says `schema_version: <current>` and keeps the stored one as `stored_schema_version`.
   */
  upcast<T extends VersionedEvent>(event: T): T {
    const current = this.currentVersion(event.type);
    const stored = this.versionOf(event, current);
    if (stored === current) return event;
    let data = event.data;
    for (let version = stored; version < current; version++) {
      const step = this.steps.get(event.type)?.get(version);
      if (!step)
        throw new SchemaVersionError(
          event.type,
          stored,
          current,
          `no upcaster from version ${version}`,
          whereOf(event),
        );
      data = step.up(data);
    }
    return { ...event, data, metadata: { ...event.metadata, schema_version: current, stored_schema_version: stored } };
  }

  private versionOf(event: VersionedEvent, current: number): number {
    const version = event.metadata?.schema_version;
    if (version === undefined || version === null) return BASE_SCHEMA_VERSION;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
      throw new SchemaVersionError(event.type, version, current, 'not a non-negative integer', whereOf(event));
    }
    if (version > current) {
      throw new SchemaVersionError(
        event.type,
        version,
        current,
        'written by a newer version of the runtime; upgrade before reading it',
        whereOf(event),
      );
    }
    return version;
  }
}

function assertContiguous(type: string, steps: Map<number, Upcaster>): void {
  const versions = [...steps.keys()].sort((a, b) => a - b);
  versions.forEach((version, index) => {
    if (index > 0 && version !== versions[index - 1] + 1)
      throw new Error(`upcasters of ${type} skip from version ${versions[index - 1]} to ${version}`);
  });
}

function whereOf(event: VersionedEvent): string {
  if (event.stream === undefined) return '';
  return ` (${event.stream}${event.revision === undefined ? '' : `@${event.revision.toString()}`})`;
}
