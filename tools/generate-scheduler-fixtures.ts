import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonLines } from '@app/application';
import { CONTRACT_CASES_2 } from './scheduler-fixtures/contract-cases-2';
import { DECISION_CASES } from './scheduler-fixtures/decision-cases';
import {
  type CaseMeta,
  expectedOf,
  SCHEDULER_FIXTURES_DIR,
  recordedAsWrittenToday,
} from './scheduler-fixtures/fixture-format';
import { ORACLE_CASES } from './scheduler-fixtures/oracle-cases';
import { SPEC_CASES } from './scheduler-fixtures/spec-cases';

/*
 * Writes fixtures/scheduler/<case>/{events.jsonl,expected.json} for every case (see the README
 * there). Deterministic: with no change of behaviour it rewrites the same bytes, so a change of
 * the deciders or of the scheduler shows up as a diff of these files.
 *   npx ts-node -T -r tsconfig-paths/register tools/generate-scheduler-fixtures.ts [--check]
 * --check writes nothing and exits 1 when a file would change. An events.jsonl recorded before an
 * event schema change is kept as stored when it upcasts to what the cases write today.
 */

const check = process.argv.includes('--check');
const cases = [...SPEC_CASES, ...DECISION_CASES, ...ORACLE_CASES, ...CONTRACT_CASES_2];
const names = new Set<string>();
let changed = 0;

function put(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  changed += 1;
  process.stdout.write(`${check ? 'would change' : 'wrote'} ${file}\n`);
  if (!check) writeFileSync(file, text);
}

for (const fixture of cases) {
  if (names.has(fixture.name)) throw new Error(`two cases are named ${fixture.name}`);
  names.add(fixture.name);
  const { stream, meta } = fixture.build();
  const dir = join(SCHEDULER_FIXTURES_DIR, fixture.name);
  const written = stream
    .stored()
    .map((event) => `${JSON.stringify(event)}\n`)
    .join('');
  const eventsFile = join(dir, 'events.jsonl');
  const recorded = existsSync(eventsFile) ? readFileSync(eventsFile, 'utf8') : null;
  const text = recorded !== null && recordedAsWrittenToday(recorded, written) === written ? recorded : written;
  // expected.json is derived from the stored text, the way the spec reads it (parse, upcast, fold),
  // except a hand-written oracle's decision: it is the case's own, and the domain must agree with it.
  const derived = expectedOf(fixture.name, parseJsonLines(text).events, meta);
  if (fixture.oracle && JSON.stringify(derived.decision) !== JSON.stringify(fixture.oracle))
    throw new Error(
      `${fixture.name}: the domain decides ${JSON.stringify(derived.decision, null, 2)}\nthe hand-written oracle says ${JSON.stringify(fixture.oracle, null, 2)}`,
    );
  const expected = fixture.oracle
    ? {
        ...derived,
        decision_source: 'hand-written oracle (tools/scheduler-fixtures/oracle-cases.ts)',
        decision: fixture.oracle,
      }
    : derived;
  const problem =
    fixture.expect &&
    (expected.decision.kind !== fixture.expect.kind ||
      (fixture.expect.reason !== undefined && expected.decision.reason !== fixture.expect.reason));
  if (problem)
    throw new Error(
      `${fixture.name}: decides ${expected.decision.kind} ${expected.decision.reason}, the case is written for ${fixture.expect!.kind} ${fixture.expect!.reason ?? ''}`,
    );
  if (expected.recorded_decisions.mismatches > 0)
    throw new Error(`${fixture.name}: replaying its recorded decisions does not reproduce them`);
  if (!check) mkdirSync(dir, { recursive: true });
  put(eventsFile, text);
  put(join(dir, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
}

// Directories no case writes (an exported stream added by hand): expected.json is recomputed from their events.
const others = existsSync(SCHEDULER_FIXTURES_DIR)
  ? readdirSync(SCHEDULER_FIXTURES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !names.has(entry.name))
      .map((entry) => entry.name)
  : [];
for (const name of others) {
  const dir = join(SCHEDULER_FIXTURES_DIR, name);
  if (!existsSync(join(dir, 'events.jsonl'))) continue;
  const previous = existsSync(join(dir, 'expected.json'))
    ? (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Partial<CaseMeta>)
    : {};
  const meta: CaseMeta = {
    description: previous.description ?? 'an exported stream',
    now: previous.now,
    work_items_unchanged_since_revision: previous.work_items_unchanged_since_revision,
  };
  const expected = expectedOf(name, parseJsonLines(readFileSync(join(dir, 'events.jsonl'), 'utf8')).events, meta);
  put(join(dir, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
}
process.stdout.write(
  `${cases.length} case(s) built, ${others.length} other case(s), ${changed} file(s) ${check ? 'out of date' : 'changed'}\n`,
);
if (check && changed > 0) process.exitCode = 1;
