import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredEventJson } from '@app/application';
import { SAMPLES_DIR, storedScenarios } from '@app/application/testing';

/*
 * Writes the stored samples that are missing (never rewrites one: a sample is what was
 * stored at the time, and an upcaster must keep reading it):
 *   npx ts-node -T -r tsconfig-paths/register tools/generate-event-samples.ts
 */

/**
 * WorkItemCreated as the prototype ledgers stored it (schema_version 0; see
 * libs/core/src/events/upcasters.ts). Already on disk: only a fresh checkout without it writes it,
 * and then with today's plan descriptor (an upcaster lifts either).
 */
function legacyWorkItemCreated(current: StoredEventJson): StoredEventJson {
  const { plan_status: _status, todo_list: _todos, revision: _revision, ...data } = current.data;
  return { ...current, data, metadata: { ...current.metadata, schema_version: 0 } };
}

function samples(): Array<{ version: number; event: StoredEventJson }> {
  const scenario = storedScenarios();
  const firstOfType = new Map<string, StoredEventJson>();
  for (const event of scenario) if (!firstOfType.has(event.type)) firstOfType.set(event.type, event);
  const current = [...firstOfType.values()].map((event) => ({ version: Number(event.metadata.schema_version), event }));
  // The creation of w-2 (no todos, draft): what a prototype creation looked like.
  const plainCreation = scenario.filter((event) => event.type === 'WorkItemCreated')[1];
  return [...current, { version: 0, event: legacyWorkItemCreated(plainCreation) }];
}

let written = 0;
for (const { version, event } of samples()) {
  const file = join(SAMPLES_DIR, event.type, `v${version}.json`);
  if (existsSync(file)) continue;
  mkdirSync(join(SAMPLES_DIR, event.type), { recursive: true });
  writeFileSync(file, `${JSON.stringify(event, null, 2)}\n`);
  written += 1;
  process.stdout.write(`wrote ${file}\n`);
}
process.stdout.write(`${written} sample(s) written\n`);
