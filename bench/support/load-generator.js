'use strict';
// The load generator of figures 3 and 4, forked as its own process so that it does not share
// an event loop (or a core) with the server it measures. Plain JavaScript: no TypeScript
// loader in the child. Jobs arrive over IPC, one at a time; each answers one result message.
//
// HTTP: autocannon for the closed loop (`connections` requests in flight; the latencies are taken
// from autocannon's per-response timings, its histograms round to 1 ms). With `overallRate`, a
// paced open loop of our own (`pacedHttp`): autocannon's `overallRate` lets each connection send
// its whole quota for the second back to back and then wait for the next second, so its "50%
// load" was the closed loop at full concurrency for half of each second (its latency the queue of
// `connections` requests, not the server's).
// gRPC: @grpc/grpc-js unary calls, `connections` calls in flight on one channel.

const autocannon = require('autocannon');
const { fill, pacedHttp, summary } = require('./paced-http');

function http(job) {
  if (job.overallRate) return pacedHttp(job);
  return new Promise((resolve, reject) => {
    let n = job.counterStart || 0;
    const agents = job.agents || [];
    const request = { method: job.method, path: job.path, headers: job.headers || {} };
    if (job.body !== undefined) request.body = job.body;
    if (job.path.includes('{') || (job.body && job.body.includes('{n}'))) {
      request.setupRequest = (req) => {
        n += 1;
        const next = { ...req, path: fill(job.path, n, agents) };
        if (job.body !== undefined) next.body = fill(job.body, n, agents);
        return next;
      };
    }
    const latencies = [];
    const options = {
      url: job.url,
      connections: job.connections,
      duration: job.seconds,
      requests: [request],
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
      // The stop flag is checked at each sample tick (default 1 s): short runs would overrun.
      sampleInt: 100,
    };
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      const ok = result['2xx'];
      const errors = result.errors + result.timeouts + result.non2xx;
      resolve({
        ...summary(latencies, ok, errors, result.duration),
        non2xx: result.non2xx,
        statusCodes: result.statusCodeStats,
      });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

let grpcClient = null;

function grpcCall(job) {
  const grpc = require('@grpc/grpc-js');
  const loader = require('@grpc/proto-loader');
  const channels = job.channels || 1;
  if (!grpcClient || grpcClient.address !== job.address || grpcClient.clients.length !== channels) {
    if (grpcClient) grpcClient.clients.forEach((c) => c.close());
    const definition = grpc.loadPackageDefinition(
      loader.loadSync(job.protoFile, {
        keepCase: true,
        longs: String,
        enums: String,
        defaults: true,
        oneofs: true,
        includeDirs: [job.protoDir],
      }),
    );
    const Service = job.service.split('.').reduce((node, key) => node[key], definition);
    // A local subchannel pool per client: each channel gets its own HTTP/2 connection.
    const clients = Array.from(
      { length: channels },
      () => new Service(job.address, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 }),
    );
    grpcClient = { address: job.address, clients };
  }
  const clients = grpcClient.clients;
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${job.token}`);
  const agents = job.agents || [];
  let n = job.counterStart || 0;
  let ok = 0;
  let errors = 0;
  let firstError = null;
  const latencies = [];
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(job.seconds * 1e9));
  const interval = job.overallRate ? 1e9 / job.overallRate : 0;
  let nextSlot = Number(start);
  const one = (worker) =>
    new Promise((resolve) => {
      const client = clients[worker % clients.length];
      n += 1;
      const request = JSON.parse(fill(job.request, n, agents));
      const t0 = process.hrtime.bigint();
      client[job.method](request, metadata, (error) => {
        if (error) {
          errors += 1;
          firstError = firstError || `${error.code} ${error.details}`;
        } else {
          ok += 1;
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
        resolve();
      });
    });
  const worker = async (_, index) => {
    while (process.hrtime.bigint() < deadline) {
      if (interval) {
        nextSlot += interval;
        const wait = (nextSlot - Number(process.hrtime.bigint())) / 1e6;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      await one(index);
    }
  };
  return Promise.all(Array.from({ length: job.connections }, (_, index) => worker(null, index))).then(() => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { ...summary(latencies, ok, errors, seconds), firstError };
  });
}

process.on('message', (message) => {
  const { id, job } = message;
  const cpu = process.cpuUsage();
  const run = job.kind === 'grpc' ? grpcCall(job) : http(job);
  run.then(
    (result) => {
      const used = process.cpuUsage(cpu);
      const clientCpuUs = result.ok ? (used.user + used.system) / result.ok : null;
      process.send({
        id,
        result: { ...result, clientCpuUs, clientBusy: (used.user + used.system) / 1e6 / result.seconds },
      });
    },
    (error) => process.send({ id, error: String((error && error.stack) || error) }),
  );
});

process.on('disconnect', () => {
  if (grpcClient) grpcClient.clients.forEach((c) => c.close());
  process.exit(0);
});
