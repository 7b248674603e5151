// `-r` for the child processes of the tests: ts-node compiling with swc instead of TypeScript
// (transpile only, as `ts-node -T`; `npm run typecheck` type-checks). A child loads about a
// thousand modules: swc cuts its start from ~8 s to ~2 s of CPU. ts-node maps tsconfig.json's
// options (decorators and their metadata, class fields, target) to swc's.
require('ts-node').register({ swc: true });
