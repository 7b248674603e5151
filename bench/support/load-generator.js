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
// gRPC: unary calls over node:http2 (grpcCall), `connections` calls in flight on `channels` connections (one by default).

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

/**
 * gRPC unary calls spoken over node:http2 (the gRPC wire format: a POST to /package.Service/Method,
 * `content-type: application/grpc`, each message behind a 5-byte prefix, the outcome in the
 * `grpc-status` trailer), the request encoded by the proto's own serializer (@grpc/proto-loader).
 * Not @grpc/grpc-js's client: its call stack costs this machine about 220 µs of CPU per call (three
 * times autocannon's per request), taken from the server and the database it measures (ADR 0052).
 * The response is read but not decoded, as autocannon does not parse HTTP bodies.
 */
function grpcSessions(job) {
  const channels = job.channels || 1;
  const key = [job.address, job.protoFile, job.service, channels].join(' ');
  if (grpcClient && grpcClient.key === key) return grpcClient;
  closeGrpc();
  const loader = require('@grpc/proto-loader');
  const definition = loader.loadSync(job.protoFile, {
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: [job.protoDir],
  });
  const service = definition[job.service];
  if (!service) throw new Error(`no service ${job.service} in ${job.protoFile}`);
  const http2 = require('node:http2');
  // Each channel its own HTTP/2 connection.
  const sessions = Array.from({ length: channels }, () => {
    const session = http2.connect(`http://${job.address}`);
    session.on('error', () => undefined); // each stream reports its own failure
    return session;
  });
  grpcClient = { key, service, sessions };
  return grpcClient;
}

function closeGrpc() {
  if (grpcClient) grpcClient.sessions.forEach((session) => session.close());
  grpcClient = null;
}

/** One unary call on `session`: resolves null when it answered OK, else the error's text. */
function unary(session, method, token, message) {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0; // not compressed
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return new Promise((resolve) => {
    let status;
    let detail = '';
    const stream = session.request({
      ':method': 'POST',
      ':path': method.path,
      'content-type': 'application/grpc',
      te: 'trailers',
      authorization: `Bearer ${token}`,
    });
    const outcome = (headers) => {
      if (headers['grpc-status'] === undefined) return;
      status = String(headers['grpc-status']);
      detail = headers['grpc-message'] ? decodeURIComponent(String(headers['grpc-message'])) : '';
    };
    stream.on('response', outcome); // a trailers-only answer (an error) has its status here
    stream.on('trailers', outcome);
    stream.on('data', () => undefined);
    stream.on('end', () => resolve(status === '0' ? null : `${status ?? 'no grpc-status'} ${detail}`));
    stream.on('error', (error) => resolve(`transport ${error.message}`));
    stream.end(frame);
  });
}

function grpcCall(job) {
  const { service, sessions } = grpcSessions(job);
  const method = service[job.method];
  if (!method) throw new Error(`no method ${job.method} in ${job.service}`);
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
  const one = async (worker) => {
    n += 1;
    const message = method.requestSerialize(JSON.parse(fill(job.request, n, agents)));
    const t0 = process.hrtime.bigint();
    const error = await unary(sessions[worker % sessions.length], method, job.token, message);
    if (error === null) {
      ok += 1;
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    } else {
      errors += 1;
      firstError = firstError || error;
    }
  };
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
  const run = Promise.resolve().then(() => (job.kind === 'grpc' ? grpcCall(job) : http(job)));
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
  closeGrpc();
  process.exit(0);
});
