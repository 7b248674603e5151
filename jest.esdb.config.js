/**
 * `npm run test:esdb` (tools/test-esdb.ts): the matrix of test/store-matrix.js on EventStoreDB.
 * The same jest run as jest.config.js, limited to the matrix's suites without the Postgres-only
 * ones; TEST_EVENT_STORE=esdb makes globalSetup find the server and the harnesses use it.
 */
const base = require('./jest.config');
const matrix = require('./test/store-matrix');

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

module.exports = {
  ...base,
  testMatch: matrix.suites.map((folder) => `<rootDir>/${folder}**/*.spec.ts`),
  testPathIgnorePatterns: [
    ...base.testPathIgnorePatterns,
    ...matrix.postgresOnly.map(({ path }) => `<rootDir>/${escape(path)}$`),
  ],
};
