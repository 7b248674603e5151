'use strict';
/*
 * The generated parts of the package, made from the repository's own contracts, never copied
 * by hand (ADR 0025):
 *   proto/agent_runtime.proto  the gRPC contract, copied from libs/contracts/proto (also by `build`)
 *   src/generated/openapi.ts   HTTP types: openapi-typescript from docs/openapi.json
 *   src/generated/grpc/        gRPC message types: proto-loader-gen-types from that .proto, with the
 *                              flags of the loader options in src/grpc/proto.ts
 * Usage: node scripts/generate.cjs [all|proto] [--out <dir>]. `--out` writes the same tree under
 * another directory: the drift spec compares it with the committed files.
 */
const { execFileSync } = require('node:child_process');
const { copyFileSync, existsSync, mkdirSync, realpathSync, rmSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');

const PACKAGE_DIR = join(__dirname, '..');
const REPO_DIR = join(PACKAGE_DIR, '..', '..');
const PROTO_SOURCE = join(REPO_DIR, 'libs', 'contracts', 'proto', 'agent_runtime.proto');
const OPENAPI_DOCUMENT = join(REPO_DIR, 'docs', 'openapi.json');
/** proto-loader's generator flags for { keepCase, longs: String, enums: String, defaults, oneofs }. */
const GRPC_GENERATOR_FLAGS = [
  '--includeComments',
  '--keepCase',
  '--longs=String',
  '--enums=String',
  '--defaults',
  '--oneofs',
];

/** A generator installed in node_modules/.bin of the package or of a directory above it. */
function bin(name) {
  for (let dir = PACKAGE_DIR; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', name);
    if (existsSync(candidate)) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} is not installed (npm ci installs it)`);
  }
}

/** Runs a generator's script on the Node that runs this one (the lockfile's, through npm). */
function run(name, args, cwd) {
  execFileSync(process.execPath, [bin(name), ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
}

function copyProto(outDir) {
  const target = join(outDir, 'proto', 'agent_runtime.proto');
  // Outside the repository (a packed copy of the package) the committed file is the contract.
  if (!existsSync(PROTO_SOURCE)) return;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(PROTO_SOURCE, target);
}

function generateTypes(outDir) {
  const generated = join(outDir, 'src', 'generated');
  rmSync(generated, { recursive: true, force: true });
  mkdirSync(generated, { recursive: true });
  run(
    'openapi-typescript',
    [OPENAPI_DOCUMENT, '--default-non-nullable=false', '--output', join(generated, 'openapi.ts')],
    outDir,
  );
  // Relative paths from the output root, so no machine path lands in the generated comments.
  run(
    'proto-loader-gen-types',
    [...GRPC_GENERATOR_FLAGS, '-I', 'proto', '-O', 'src/generated/grpc', 'agent_runtime.proto'],
    outDir,
  );
}

function main(argv) {
  const what = argv[0] && !argv[0].startsWith('--') ? argv[0] : 'all';
  const outIndex = argv.indexOf('--out');
  const outDir = outIndex >= 0 ? resolve(argv[outIndex + 1]) : PACKAGE_DIR;
  if (what !== 'all' && what !== 'proto') throw new Error(`unknown target ${what}: all or proto`);
  copyProto(outDir);
  if (what === 'all') generateTypes(outDir);
}

main(process.argv.slice(2));
