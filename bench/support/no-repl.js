'use strict';
// Preloaded before ts-node by `npm run bench` and bench/command-profile.ts's command line.
// ts-node requires node:repl when it starts (for its REPL, which a bench never opens), and
// node:repl loads node:domain, which switches every EventEmitter of the process to domain-aware
// paths (EventEmitter.init and emit through node:domain: about 1-2% of a command's CPU in the
// profile). A server started by `node dist/...` never loads it, so the bench measured another
// process than the one deployed. ts-node's `repl` is handed a stand-in that loads the real
// module on first use (never, here).
const Module = require('node:module');

const load = Module._load;
Module._load = function loadWithoutRepl(request, parent, isMain) {
  if (
    (request === 'repl' || request === 'node:repl') &&
    parent &&
    /ts-node[\\/]dist[\\/]repl\.js$/.test(parent.filename)
  ) {
    let real = null;
    return new Proxy(
      {},
      {
        get: (_target, key) => {
          real = real || load.call(Module, 'node:repl', parent, false);
          return real[key];
        },
      },
    );
  }
  return load.apply(this, arguments);
};
