// Lint rules about the code itself. Which file may import which is stated once, in
// .dependency-cruiser.cjs (also run by `npm run lint`).
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-debugger': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // libs/domain is pure: time, randomness, the environment and IO are its inputs (what it may
    // import is a rule of .dependency-cruiser.cjs).
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'libs/domain is pure: no env.' },
        { name: 'setTimeout', message: 'libs/domain is pure: no timers.' },
        { name: 'setInterval', message: 'libs/domain is pure: no timers.' },
        { name: 'fetch', message: 'libs/domain is pure: no IO.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'libs/domain is pure: time is an input.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'libs/domain is pure: time is an input.',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'libs/domain is pure: ids are inputs.',
        },
      ],
    },
  },
);
