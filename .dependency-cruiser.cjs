/**
 * The import rules of the repository, stated once (docs/architecture.md, ADR 0013), checked by
 * `npm run lint` on apps, libs, packages, test, tools and bench, and proven able to fail by
 * test/architecture/dependency-rules.spec.ts.
 */

/** Each library and the libraries below it that it may import: one way, from the ground up. */
const LIBRARIES = {
  domain: [],
  'event-store': [],
  core: ['domain', 'event-store'],
  'read-models': ['core', 'domain', 'event-store'],
  contracts: ['core', 'domain', 'event-store'],
  application: ['read-models', 'contracts', 'core', 'domain', 'event-store'],
  platform: ['application', 'read-models', 'contracts', 'core', 'domain', 'event-store'],
};

/** Spec files and testing folders: test code inside apps and libs. */
const TEST_CODE = ['\\.spec\\.ts$', '/testing/'];
/** Files that run before the `@app/*` aliases resolve, so they name a library file by its path. */
const BEFORE_ALIASES = ['^apps/register-paths\\.ts$', '^test/setup/global-setup\\.ts$'];
/** A library's faces: src/index.ts, and src/testing/index.ts for test code. */
const FACES = ['^libs/[^/]+/src/index\\.ts$', '^libs/[^/]+/src/testing/index\\.ts$'];

const libraryOrder = Object.entries(LIBRARIES).map(([library, below]) => ({
  name: 'library-order',
  comment: `libs/${library} may import ${below.length === 0 ? 'no other library' : below.map((l) => `libs/${l}`).join(', ')} (nothing above it).`,
  severity: 'error',
  from: { path: `^libs/${library}/` },
  to: { path: '^libs/', pathNot: `^libs/(${[library, ...below].join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...libraryOrder,
    {
      name: 'no-deep-import',
      comment:
        'Another library is imported through its face, @app/<lib> (or @app/<lib>/testing from test code), never a file inside it.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/', ...FACES] },
    },
    {
      name: 'no-deep-import',
      comment:
        'Outside the libraries, a library is imported through its face, @app/<lib> (or @app/<lib>/testing from test code).',
      severity: 'error',
      from: { path: '^(apps|test|tools|bench)/', pathNot: BEFORE_ALIASES },
      to: { path: '^libs/[^/]+/src/', pathNot: FACES },
    },
    {
      name: 'testing-face-for-tests-only',
      comment:
        'A testing face (@app/<lib>/testing) serves specs, test harnesses, tools and bench, never the code that ships.',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: TEST_CODE },
      to: { path: '^libs/[^/]+/src/testing/' },
    },
    {
      name: 'no-app-to-app',
      comment:
        'An app never imports another app: what two apps share lives in a library (the boot code is in libs/platform).',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: ['^apps/$1/', '^apps/register-paths\\.ts$'] },
    },
    {
      name: 'no-lib-to-app-or-test',
      comment:
        'A library never imports an app, test/, tools/ or bench/: they import the libraries, not the other way round.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(apps|test|tools|bench)/' },
    },
    {
      name: 'no-app-to-test',
      comment: 'The code of an app never imports test/, tools/ or bench/ (its specs may use tools/).',
      severity: 'error',
      from: { path: '^apps/', pathNot: TEST_CODE },
      to: { path: '^(test|tools|bench)/' },
    },
    {
      name: 'client-package-stands-alone',
      comment:
        'packages/client is published on its own: it never imports the libraries, the apps, test/, tools/ or bench/ (its specs against a real runtime live in test/client).',
      severity: 'error',
      from: { path: '^packages/client/' },
      to: { path: '^(libs|apps|test|tools|bench)/' },
    },
    {
      name: 'no-circular',
      comment: 'No file-level import cycle (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment:
        'libs/domain imports nothing outside itself: no other library, no Node built-in, no Nest, pg or rxjs; only the pure hashes of @noble/hashes (ADR 0042).',
      severity: 'error',
      from: { path: '^libs/domain/', pathNot: TEST_CODE },
      to: { pathNot: ['^libs/domain/', '(^|/)node_modules/@noble/hashes/'] },
    },
    {
      name: 'domain-is-pure',
      comment: 'The specs and testing face of libs/domain import nothing outside it but fast-check.',
      severity: 'error',
      from: { path: ['^libs/domain/.*\\.spec\\.ts$', '^libs/domain/src/testing/'] },
      to: { pathNot: ['^libs/domain/', '(^|/)node_modules/fast-check/', '(^|/)node_modules/@noble/hashes/'] },
    },
    {
      name: 'views-before-replies',
      comment:
        'In libs/domain, the reply renderers (src/replies) may use the views and the rest of the domain; nothing outside src/replies imports a reply renderer (the index aside).',
      severity: 'error',
      from: { path: '^libs/domain/src/', pathNot: ['^libs/domain/src/replies/', '^libs/domain/src/index\\.ts$'] },
      to: { path: '^libs/domain/src/replies/' },
    },
    {
      name: 'eventstoredb-client-in-its-adapter',
      comment: 'Only libs/event-store/src/eventstoredb imports the EventStoreDB client.',
      severity: 'error',
      from: { pathNot: '^libs/event-store/src/eventstoredb/' },
      to: { path: '(^|/)node_modules/@eventstore/' },
    },
    {
      name: 'pg-where-allowed',
      comment:
        "In apps and libs, pg is imported by the Postgres event store adapter, the read models and the platform's Postgres helpers; elsewhere only its types.",
      severity: 'error',
      from: {
        path: '^(apps|libs)/',
        pathNot: ['^libs/event-store/src/postgres/', '^libs/read-models/', '^libs/platform/src/postgres/'],
      },
      to: { path: '(^|/)node_modules/pg/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (an alias that does not resolve would slip past every rule above).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-orphans',
      comment: "No file that nothing imports and that imports nothing (entry points and jest's own files aside).",
      severity: 'error',
      from: { orphan: true, pathNot: ['\\.d\\.ts$', '^test/setup/'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^console/', '^coverage/', '^packages/[^/]+/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['require', 'node', 'default', 'types', 'import'],
      mainFields: ['main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
