#!/usr/bin/env node
import '../../register-paths';
import { runCli } from './cli';
import { processIo } from './cli-io';

// `npm run cli -- <command>` (ts-node) and the package bin (dist/apps/cli/src/main.js).
runCli(process.argv.slice(2), processIo()).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
