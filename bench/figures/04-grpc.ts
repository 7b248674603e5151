import { AGENT_RUNTIME_PROTO } from '@app/contracts';
import { PROTO_DIR, protoPath } from '@app/contracts';
import { RUNTIME_GRPC_SERVICE } from '@app/contracts';
import { atLeast } from '../report';
import type { Figure } from '../support/context';
import type { GrpcJob, LoadResult } from '../support/load';
import { BENCH_WORK_ITEM, type RuntimeFixture } from '../support/runtime';
import { interleaved, median } from '../support/stats';
import { commandJob, commandProfile, nextCounterStart } from './03-http';

function grpcJob(runtime: RuntimeFixture, connections: number, seconds: number): GrpcJob {
  return {
    kind: 'grpc',
    address: runtime.grpcAddress,
    protoFile: protoPath(AGENT_RUNTIME_PROTO),
    protoDir: PROTO_DIR,
    service: RUNTIME_GRPC_SERVICE,
    method: 'UpdateWorkItem',
    token: runtime.token,
    request: JSON.stringify({
      agent_id: '{agent}',
      work_item_id: BENCH_WORK_ITEM,
      todo_list: [{ text: 'step {n}', state: 'in_progress' }],
    }),
    agents: runtime.agents,
    counterStart: nextCounterStart(),
    connections,
    seconds,
  };
}

function assertClean(name: string, result: LoadResult): LoadResult {
  if (result.ok === 0 || result.errors > result.ok * 0.01)
    throw new Error(`${name}: ${result.ok} ok, ${result.errors} errors (${result.firstError ?? ''})`);
  return result;
}

export const grpcFigure: Figure = {
  id: 4,
  title: 'The same command over gRPC vs over HTTP',
  usesRuntime: true,
  async run(ctx) {
    const seconds = ctx.scale(4, 0.5);
    const repetitions = ctx.scale(5, 1);
    const runtime = await ctx.runtime();
    assertClean('gRPC warm-up', await ctx.load.run(grpcJob(runtime, ctx.concurrency, ctx.scale(2, 1))));
    const runs: Record<'grpc' | 'http', LoadResult[]> = { grpc: [], http: [] };
    const rates = await interleaved(repetitions, {
      grpc: async () => {
        const result = assertClean('gRPC', await ctx.load.run(grpcJob(runtime, ctx.concurrency, seconds)));
        runs.grpc.push(result);
        return result.rate;
      },
      http: async () => {
        const result = assertClean('HTTP', await ctx.load.run(commandJob(runtime, ctx.concurrency, seconds)));
        runs.http.push(result);
        return result.rate;
      },
    });
    const grpc = median(rates.grpc);
    const http = median(rates.http);
    ctx.log(`  gRPC ${grpc.toFixed(0)}/s, HTTP ${http.toFixed(0)}/s`);
    const check = atLeast(grpc / http, 0.8);
    const grpcCpu = median(runs.grpc.map((r) => r.serverCpuUs));
    const httpCpu = median(runs.http.map((r) => r.serverCpuUs));
    const capacity = atLeast(httpCpu / grpcCpu, 0.8);
    const notes = [
      'gRPC: `agent_runtime.v1.AgentRuntime/UpdateWorkItem` with the same todo_list change, bearer token in metadata, ' +
        `${ctx.concurrency} calls in flight on one HTTP/2 connection (HTTP: ${ctx.concurrency} autocannon connections). ` +
        "The load generator speaks gRPC over node:http2 (the request encoded by the proto's serializer), not through " +
        "@grpc/grpc-js's client, whose call stack cost about 220 µs of CPU per call here, three times autocannon's per " +
        'request, taken from the server and the database on this two-core machine (ADR 0052).',
    ];
    const clientGrpc = median(runs.grpc.map((r) => r.clientCpuUs));
    const clientHttp = median(runs.http.map((r) => r.clientCpuUs));
    notes.push(
      `The load generator itself: the gRPC client spends ${clientGrpc.toFixed(0)} µs of CPU per call, autocannon ` +
        `${clientHttp.toFixed(0)} µs per request; on this machine the load generator shares the second core with Postgres, so a ` +
        'heavier client takes CPU from the database and the server. Capacity (server CPU per command) compares the server side alone.',
    );
    if (!check.met || !capacity.met) {
      notes.push(
        `Missed: gRPC at ${(check.ratio! * 100).toFixed(0)}% of HTTP's throughput, ${(capacity.ratio! * 100).toFixed(0)}% of its ` +
          'capacity (server CPU per command). ' +
          (
            await commandProfile(ctx, () => ctx.load.run(grpcJob(runtime, ctx.concurrency, ctx.scale(3, 1))))
          ).text.replace("a command's", "a gRPC command's"),
      );
    }
    const mid = (results: LoadResult[], key: 'p50' | 'p99' | 'serverCpuUs' | 'clientCpuUs' | 'clientBusy') =>
      median(results.map((r) => r[key]));
    return {
      method:
        `Closed loop, ${ctx.concurrency} requests in flight, ${seconds} s per run, ${repetitions} interleaved runs per transport, medians; ` +
        'the load generator runs in its own process; same runtime app, agents and command as figure 3.',
      checks: [
        {
          name: 'command throughput: gRPC vs HTTP',
          measured: { value: grpc, unit: 'commands/s' },
          baseline: { value: http, unit: 'commands/s', label: 'HTTP' },
          ...check,
        },
        {
          name: 'command capacity (1 / server CPU per command): gRPC vs HTTP',
          measured: { value: 1e6 / grpcCpu, unit: 'commands/s per core' },
          baseline: { value: 1e6 / httpCpu, unit: 'commands/s per core', label: 'HTTP' },
          ...capacity,
        },
      ],
      tables: [
        {
          title: 'Closed loop (medians of the runs)',
          columns: [
            'transport',
            'commands/s',
            'runs',
            'p50 ms',
            'p99 ms',
            'server CPU µs/command',
            'client CPU µs/command',
            'client busy',
          ],
          rows: [
            [
              'gRPC',
              grpc,
              rates.grpc.map((r) => r.toFixed(0)).join(' / '),
              mid(runs.grpc, 'p50'),
              mid(runs.grpc, 'p99'),
              mid(runs.grpc, 'serverCpuUs'),
              mid(runs.grpc, 'clientCpuUs'),
              `${(mid(runs.grpc, 'clientBusy') * 100).toFixed(0)}%`,
            ],
            [
              'HTTP',
              http,
              rates.http.map((r) => r.toFixed(0)).join(' / '),
              mid(runs.http, 'p50'),
              mid(runs.http, 'p99'),
              mid(runs.http, 'serverCpuUs'),
              mid(runs.http, 'clientCpuUs'),
              `${(mid(runs.http, 'clientBusy') * 100).toFixed(0)}%`,
            ],
          ],
        },
      ],
      notes,
    };
  },
};
