import type { PoolClient } from 'pg';
import type { RowWrite, TableSpec } from './projector';

const IDENT = /^[a-z_][a-z0-9_]*$/;

/**
 * Writes a batch of row writes as one statement per table: rows are merged by key (the last
 * write wins, as in event order), then upserted from a JSON array. Each row carries the
 * position of the event that produced it, and a row is only replaced by a later position, so
 * a redelivered batch changes nothing.
 */
export class RowWriter {
  private readonly tables = new Map<string, TableSpec>();

  constructor(specs: TableSpec[]) {
    for (const spec of specs) {
      for (const name of [spec.name, ...spec.columns, ...(spec.keptViewFields ?? [])])
        if (!IDENT.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
      this.tables.set(spec.name, spec);
    }
  }

  async write(client: PoolClient, writes: Array<RowWrite & { position: bigint }>): Promise<void> {
    const byTable = new Map<string, Map<string, Record<string, unknown>>>();
    for (const write of writes) {
      const spec = this.spec(write.table);
      const rows = byTable.get(spec.name) ?? new Map<string, Record<string, unknown>>();
      const key = JSON.stringify(spec.key.map((column) => write.row[column]));
      rows.set(key, { ...write.row, last_position: write.position.toString() });
      byTable.set(spec.name, rows);
    }
    for (const [table, rows] of byTable) await this.upsert(client, this.spec(table), [...rows.values()]);
  }

  tableNames(): string[] {
    return [...this.tables.keys()];
  }

  private async upsert(client: PoolClient, spec: TableSpec, rows: Array<Record<string, unknown>>): Promise<void> {
    const columns = [...spec.columns, 'last_position'];
    const list = columns.join(', ');
    const updates = columns
      .filter((c) => !spec.key.includes(c))
      .map((c) => `${c} = ${c === 'view' ? keptView(spec) : `EXCLUDED.${c}`}`)
      .join(', ');
    await client.query(
      `INSERT INTO ${spec.name} (${list})
       SELECT ${list} FROM jsonb_populate_recordset(NULL::${spec.name}, $1::jsonb)
       ON CONFLICT (${spec.key.join(', ')}) DO UPDATE SET ${updates}
       WHERE ${spec.name}.last_position < EXCLUDED.last_position`,
      [JSON.stringify(rows)],
    );
  }

  private spec(table: string): TableSpec {
    const spec = this.tables.get(table);
    if (!spec) throw new Error(`projector wrote to an undeclared table: ${table}`);
    return spec;
  }
}

/** The new view, with each kept field the write leaves null taken from the row's view. */
function keptView(spec: TableSpec): string {
  return (spec.keptViewFields ?? []).reduce(
    (view, field) =>
      `CASE WHEN jsonb_typeof(EXCLUDED.view->'${field}') = 'null' AND ${spec.name}.view ? '${field}' ` +
      `THEN jsonb_set(${view}, '{${field}}', ${spec.name}.view->'${field}') ELSE ${view} END`,
    'EXCLUDED.view',
  );
}
