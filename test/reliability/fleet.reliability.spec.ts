import { type FleetResult, fleetUnderKills } from './scenarios/fleet';
import { Fleet } from './support/fleet';
import { assertCleanHistory } from './support/history';

// Six ts-node starts dominate the wall time (minutes on a loaded machine): a safety net, not a figure.
jest.setTimeout(900_000);

const print = (value: unknown) =>
  console.log(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));

/**
 * The fleet of issue 18 as separate processes on one embedded Postgres started here: 2 api,
 * 2 projector and 2 scheduler replicas (RUNTIME_ROLE each, lease TTL 3 s). Under a random
 * multi-agent workload through both api replicas, one replica of each role is killed with
 * `kill -9` and not restarted: the survivors carry on (the longer form in `npm run test:soak --
 * --only fleet` restarts them). ADR 0039.
 */
describe('a fleet of 2 api + 2 projector + 2 scheduler processes, one of each killed -9 mid-run', () => {
  let fleet: Fleet | undefined;
  let result: FleetResult;

  beforeAll(async () => {
    fleet = await Fleet.start({ leaseTtlMs: 3_000 });
    try {
      result = await fleetUnderKills(fleet, {
        agents: 8,
        killAt: { api: 30, projector: 60, scheduler: 90 },
        after: 50,
      });
      print({ ...result, report: { ...result.report, problems: result.report.problems.slice(0, 10) } });
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${fleet.output()}`);
    }
  });
  afterAll(() => fleet?.close());

  it('killed one replica of each role', () => {
    expect([...result.killed].map((name) => name.split('-')[0]).sort()).toEqual(['api', 'projector', 'scheduler']);
  });

  it('0 acknowledged commands lost, none applied twice, and the read models equal a rebuild', () => {
    assertCleanHistory(result.report);
    expect(result.report.acked).toBeGreaterThan(100);
    expect(result.report.rebuiltRows).toBeGreaterThan(0);
  });

  it('0 duplicate decision keys', () => {
    expect(result.duplicateKeys).toEqual([]);
  });

  it("every agent's next decision after the scheduler's kill is recorded within the lease TTL + 5 s", () => {
    const late = result.probes.filter((probe) => !(probe.lateMs <= fleet!.leaseTtlMs + 5_000));
    expect(late).toEqual([]);
    // The agents without a host have nobody but a scheduler replica to fire their timer.
    expect(result.probes.filter((probe) => probe.byWorker).length).toBeGreaterThanOrEqual(result.probes.length / 2);
  });
});
