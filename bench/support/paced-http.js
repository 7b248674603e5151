'use strict';
// The paced open loop of the load generator (bench/support/load-generator.js): figure 3's
// latency runs at 50% of the max rate. Plain JavaScript, as the generator.

const net = require('node:net');

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** A run's result: counts, rate and latency percentiles (ms). */
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
    /** How long each request waited for a free connection (ms). */
    const waits = [];
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
      const connectionWaitP99 = percentile(Float64Array.from(waits).sort(), 99);
      resolve({
        ...summary(latencies, ok, errors, seconds),
        non2xx: errors,
        statusCodes,
        firstError,
        connectionWaitP99,
      });
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
        waits.push(Number(process.hrtime.bigint() - request.sentAt) / 1e6);
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

module.exports = { pacedHttp, summary, fill };
