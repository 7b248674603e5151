/** One jest run: fast domain specs and integration specs on a real embedded Postgres. */
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

/**
 * TypeScript to JavaScript with swc, file by file (tsconfig.json's isolatedModules makes that
 * safe): `npm run typecheck` type-checks once for the whole run. The options are tsconfig.json's:
 * target ES2022, CommonJS, legacy decorators with their metadata (Nest's injection reads it),
 * class fields defined as ES2022 defines them.
 */
const SWC = {
  swcrc: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2022',
    keepClassNames: true,
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/{apps,libs,packages,test}/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/test/reliability/soak/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', SWC],
  },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  testTimeout: 30000,
  maxWorkers: 2,
};
