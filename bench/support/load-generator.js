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
const net = require('node:net');

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

function summary(latencies, ok, errors, seconds) {
  const sorted = Float64Array.from(latencies).sort();
  return {
    ok,
    errors,
    seconds,
    rate: ok / seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    samples: sorted.length,
  };
}

/** `{agent}`, `{n}` in the path and body templates: a round-robin agent and a request counter. */
function fill(template, n, agents) {
  return template.replace(/\{agent\}/g, agents.length ? agents[n % agents.length] : '').replace(/\{n\}/g, String(n));
}

/**
 * Open loop: request i is due at start + i / overallRate (evenly spaced), sent on one of
 * `connections` keep-alive connections (a request finding all of them busy waits for one, and
 * that wait counts in its latency: a slow server cannot hide time by delaying the next request).
 * Latency: from the moment the request is due and handed to the connections (this process's own
 * timer lag aside) to the end of its response. Plain sockets and a minimal HTTP/1.1 client (one
 * request in flight per connection, responses framed by Content-Length, as every server here
 * sends): node:http's client costs several times autocannon's CPU per request, too much to pace
 * the no-op servers at half their maximum.
 */
function pacedHttp(job) {
  return new Promise((resolve) => {
    const agents = job.agents || [];
    const target = new URL(job.url);
    const port = Number(target.port);
    const host = `${target.hostname}:${port}`;
    const fixedHeaders = Object.entries(job.headers || {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const interval = 1e9 / job.overallRate;
    const start = process.hrtime.bigint();
    const total = Math.max(1, Math.round(job.seconds * job.overallRate));
    const latencies = [];
    const statusCodes = {};
    const waiting = [];
    const free = [];
    let open = 0;
    let n = job.counterStart || 0;
    let sent = 0;
    let done = 0;
    let ok = 0;
    let errors = 0;
    let firstError = null;
    let finished = false;
    const finish = () => {
      finished = true;
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      for (const connection of free) connection.socket.destroy();
      resolve({ ...summary(latencies, ok, errors, seconds), non2xx: errors, statusCodes, firstError });
    };
    const settle = (request, status, error) => {
      done += 1;
      if (error) {
        errors += 1;
        firstError = firstError || String(error);
      } else {
        statusCodes[status] = { count: ((statusCodes[status] && statusCodes[status].count) || 0) + 1 };
        if (status >= 200 && status < 300) {
          ok += 1;
          latencies.push(Number(process.hrtime.bigint() - request.sentAt) / 1e6);
        } else errors += 1;
      }
      if (done === total) finish();
    };
    const dispatch = () => {
      while (waiting.length > 0) {
        const connection = free.pop() || (open < job.connections ? connect() : null);
        if (!connection) return;
        const request = waiting.shift();
        connection.current = request;
        connection.buffer = Buffer.alloc(0);
        connection.timer = setTimeout(() => connection.socket.destroy(new Error('timeout')), 10_000);
        connection.socket.write(request.bytes);
      }
    };
    const connect = () => {
      open += 1;
      const socket = net.connect({ host: target.hostname, port });
      socket.setNoDelay(true);
      const connection = { socket, current: null, buffer: Buffer.alloc(0), timer: null };
      const complete = (status, error) => {
        const request = connection.current;
        connection.current = null;
        clearTimeout(connection.timer);
        if (request) settle(request, status, error);
      };
      socket.on('data', (chunk) => {
        if (!connection.current) return;
        connection.buffer = Buffer.concat([connection.buffer, chunk]);
        const headEnd = connection.buffer.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = connection.buffer.subarray(0, headEnd).toString('latin1');
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        if (!length) {
          socket.destroy(new Error(`a response without Content-Length: ${head.split('\r\n')[0]}`));
          return;
        }
        if (connection.buffer.length < headEnd + 4 + Number(length[1])) return;
        const status = Number(head.slice(9, 12));
        const closing = /\r\nconnection: *close/i.test(head);
        complete(status, null);
        if (closing) socket.destroy();
        else if (!finished) {
          free.push(connection);
          dispatch();
        } else socket.destroy();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open -= 1;
        const index = free.indexOf(connection);
        if (index >= 0) free.splice(index, 1);
        if (connection.current) complete(0, new Error('connection closed before the response'));
        if (!finished) dispatch();
      });
      return connection;
    };
    const send = () => {
      n += 1;
      const body = job.body === undefined ? '' : fill(job.body, n, agents);
      const path = fill(job.path, n, agents);
      const bytes =
        `${job.method} ${path} HTTP/1.1\r\nhost: ${host}\r\n${fixedHeaders}` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      waiting.push({ sentAt: process.hrtime.bigint(), bytes });
      dispatch();
    };
    const tick = () => {
      const now = process.hrtime.bigint();
      while (sent < total && start + BigInt(Math.round(sent * interval)) <= now) {
        send();
        sent += 1;
      }
      if (sent < total) {
        const next = Number(start + BigInt(Math.round(sent * interval)) - process.hrtime.bigint()) / 1e6;
        setTimeout(tick, Math.max(0, next));
      }
    };
    tick();
  });
}

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
