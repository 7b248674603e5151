/**
 * Which suites run on which event store (docs/testing.md). `npm test` runs everything on the
 * Postgres store; `npm run test:esdb` (tools/test-esdb.ts, jest.esdb.config.js) runs `suites` on
 * EventStoreDB/KurrentDB, except the Postgres-specific ones listed here with why. A suite that is
 * not Postgres-specific belongs in no list: it runs on both.
 */
module.exports = {
  /** The matrix: the e2e, reliability, client and benchmark suites, on either store. */
  suites: ['test/e2e/', 'test/reliability/', 'test/client/', 'test/bench/'],

  /** Postgres-specific scenarios: they test the Postgres store or the embedded Postgres itself. */
  postgresOnly: [
    {
      path: 'test/reliability/crash-service.reliability.spec.ts',
      why: 'kills the service and restarts its embedded Postgres, which holds the events there',
    },
    {
      path: 'test/reliability/races.reliability.spec.ts',
      why: "holds an append open in a Postgres transaction (append_events) to race the projector's horizon",
    },
    {
      path: 'test/reliability/security/embedded-postgres.e2e.spec.ts',
      why: "the embedded Postgres's secrets and reach",
    },
    {
      path: 'test/e2e/audit/cli-commands.e2e.spec.ts',
      why: 'the CLI starting an embedded Postgres from RUNTIME_DATA_DIR when no service runs',
    },
  ],

  /** Only where a three-node cluster runs (docker-compose's `cluster` profile): skipped with one line elsewhere. */
  clusterOnly: [
    {
      path: 'test/reliability/leader-failover.reliability.spec.ts',
      why: 'stops the leader container of a three-node cluster while commands are written',
    },
  ],
};
