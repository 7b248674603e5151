import { randomBytes } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { agentStream } from '@app/core';
import { SCHEDULER_WORKER, type SchedulerWorker } from '@app/application';
import { EVENT_STORE, type EventStore, type StoredEvent } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { startTestApp, type TestApp } from '../../support/app';
import { runtimeGrpcClient } from '../../support/grpc';
import { httpClient, projected } from '../../support/http';
import { freshId } from '../../support/postgres';

const ADMIN = 'tok-admin';
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const traceOf = (span: ReadableSpan) => span.spanContext().traceId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** An incoming W3C context, as a caller's own tracing would send it. */
function callerContext() {
  const traceId = hex(16);
  const parentId = hex(8);
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
}

async function eventsOf(app: TestApp, agent: string): Promise<StoredEvent[]> {
  return app.runtime.app.get<EventStore>(EVENT_STORE).readStream(agentStream(agent));
}

async function settle(app: TestApp): Promise<void> {
  await app.runtime.app.get<SchedulerWorker>(SCHEDULER_WORKER).idle();
  await projected(app);
}

/**
 * Tracing on: waits until the worker has evaluated the agent after its last event (the decision
 * span caused by it has ended), or the last event is the worker's own write (which asks for no
 * evaluation: its evaluation saw it, ADR 0038), and written nothing since, so no evaluation is
 * still under way when the spec's command arrives (it would decide on it, in the trace of the
 * event that woke it).
 */
async function quiet(app: TestApp, exporter: InMemorySpanExporter, agent: string): Promise<number> {
  const worker = app.runtime.app.get<SchedulerWorker>(SCHEDULER_WORKER);
  const probe = async () => {
    await worker.idle();
    const events = await eventsOf(app, agent);
    const last = events.at(-1);
    const spanId = String(last?.metadata.traceparent).split('-')[2];
    const evaluated =
      last?.metadata.actor === 'scheduler' ||
      exporter.getFinishedSpans().some((span) => span.name === 'scheduler decide' && parentOf(span) === spanId);
    await worker.idle();
    return { evaluated, count: events.length, after: (await eventsOf(app, agent)).length };
  };
  const { count } = await eventually(
    'the worker at rest on the agent',
    probe,
    (p) => p.evaluated && p.after === p.count,
    {
      timeoutMs: 15_000,
    },
  );
  await projected(app);
  return count;
}

/**
 * The one trace of a caller's command, as the in-memory exporter holds it: the server span (a
 * child of the caller's traceparent), the command span (decide and append) under it, the event
 * carrying the command span's context, the projection span of that event, the scheduler's
 * decision span it caused, and that decision's own events and their projection.
 */
async function expectOneTrace(
  exporter: InMemorySpanExporter,
  app: TestApp,
  agent: string,
  caller: ReturnType<typeof callerContext>,
  serverSpanName: string,
  eventsBefore: number,
): Promise<void> {
  const inTrace = () => exporter.getFinishedSpans().filter((span) => traceOf(span) === caller.traceId);
  const decisionRecorded = (spans: ReadableSpan[]) =>
    spans.some((span) => span.name === serverSpanName) &&
    spans.some(
      (span) =>
        span.name === 'project read_models' &&
        span.attributes['agent_runtime.event.type'] === 'SchedulerDecisionRecorded',
    );
  const spans = await eventually('the decision and its projection in the caller trace', inTrace, decisionRecorded, {
    timeoutMs: 15_000,
  });

  const server = spans.find((span) => span.name === serverSpanName)!;
  expect(server).toBeDefined();
  expect(server.kind).toBe(SpanKind.SERVER);
  expect(parentOf(server)).toBe(caller.parentId);

  const command = spans.find((span) => span.name === 'command EnqueueMessage')!;
  expect(command).toBeDefined();
  expect(parentOf(command)).toBe(idOf(server));
  expect(command.attributes['agent.id']).toBe(agent);

  const written = (await eventsOf(app, agent)).slice(eventsBefore);
  const enqueued = written.find((event) => event.metadata.traceparent === `00-${caller.traceId}-${idOf(command)}-01`);
  expect(enqueued).toBeDefined();

  const projection = spans.find(
    (span) => span.name === 'project read_models' && span.attributes['agent_runtime.event.type'] === enqueued!.type,
  )!;
  expect(projection).toBeDefined();
  expect(parentOf(projection)).toBe(idOf(command));
  expect(projection.kind).toBe(SpanKind.CONSUMER);
  expect(projection.attributes['agent_runtime.event.position']).toBe(enqueued!.position.toString());

  const decision = spans.find((span) => span.name === 'scheduler decide' && parentOf(span) === idOf(command))!;
  expect(decision).toBeDefined();
  expect(decision.attributes).toMatchObject({ 'agent.id': agent, 'agent_runtime.decision': 'StartModelTurn' });

  const recordCommand = spans.find(
    (span) => span.name === 'command RecordDecision' && parentOf(span) === idOf(decision),
  );
  expect(recordCommand).toBeDefined();
  const recorded = written.find((event) => event.type === 'SchedulerDecisionRecorded')!;
  expect(recorded.metadata.traceparent).toBe(`00-${caller.traceId}-${idOf(recordCommand!)}-01`);
  const recordedProjection = spans.find(
    (span) => span.name === 'project read_models' && span.attributes['agent_runtime.event.type'] === recorded.type,
  )!;
  expect(parentOf(recordedProjection)).toBe(idOf(recordCommand!));
}

describe('traces with tracing on (OTEL_TRACES_EXPORTER set): one trace from a command to the next decision', () => {
  const exporter = new InMemorySpanExporter();
  let app: TestApp;
  let http: ReturnType<typeof httpClient>;
  let grpc: ReturnType<typeof runtimeGrpcClient>;

  beforeAll(async () => {
    app = await startTestApp({
      scheduler: true,
      env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_SERVICE_NAME: 'agent-runtime-spec' },
      spanExporter: exporter,
    });
    http = httpClient(app, ADMIN);
    grpc = runtimeGrpcClient(app);
  });

  afterAll(async () => {
    grpc?.close();
    await app?.close();
  });

  it('HTTP: the caller traceparent is honoured; command, event, projection and decision share its trace', async () => {
    const agent = freshId('traced');
    expect((await http('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const before = await quiet(app, exporter, agent);
    const caller = callerContext();
    const reply = await http(
      'POST',
      `/v1/agents/${agent}/messages`,
      { kind: 'operator_prompt', body: 'Fix the login bug.' },
      { traceparent: caller.traceparent },
    );
    expect(reply.status).toBe(201);
    await expectOneTrace(exporter, app, agent, caller, 'POST /v1/agents/:agent_id/messages', before);
  });

  it('gRPC: the same trace from a call carrying traceparent metadata', async () => {
    const agent = freshId('traced');
    expect((await http('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const before = await quiet(app, exporter, agent);
    const caller = callerContext();
    const result = await grpc.call(
      'EnqueueMessage',
      { agent_id: agent, kind: 'operator_prompt', body: { text: 'Fix the login bug.' } },
      ADMIN,
      { traceparent: caller.traceparent },
    );
    expect(result.error).toBeNull();
    await expectOneTrace(exporter, app, agent, caller, 'agent_runtime.v1.AgentRuntime/EnqueueMessage', before);
  });

  it('a request without traceparent starts a trace of its own; its events carry it; /health is not traced', async () => {
    const agent = freshId('traced');
    expect((await http('GET', '/health')).status).toBe(200);
    expect((await http('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    const [registered] = await eventsOf(app, agent);
    expect(registered.metadata.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const traceId = String(registered.metadata.traceparent).split('-')[1];
    const server = exporter
      .getFinishedSpans()
      .find((span) => traceOf(span) === traceId && span.kind === SpanKind.SERVER)!;
    expect(server).toBeDefined();
    expect(server.parentSpanContext).toBeUndefined();
    expect(server.attributes).toMatchObject({ 'http.route': '/v1/agents', 'http.response.status_code': 201 });
    expect(server.resource.attributes['service.name']).toBe('agent-runtime-spec');
    expect(exporter.getFinishedSpans().some((span) => String(span.attributes['url.path']).startsWith('/health'))).toBe(
      false,
    );
  });
});

describe('traces with tracing off (no OTEL_* variable): no span, no trace context in any event', () => {
  const exporter = new InMemorySpanExporter();
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ scheduler: true, spanExporter: exporter });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('creates no span and stores no traceparent, even when the caller sends one', async () => {
    const http = httpClient(app, ADMIN);
    const grpc = runtimeGrpcClient(app);
    try {
      const agent = freshId('untraced');
      const { traceparent } = callerContext();
      expect((await http('POST', '/v1/agents', { agent_id: agent }, { traceparent })).status).toBe(201);
      const message = { kind: 'operator_prompt', body: 'Fix the login bug.' };
      expect((await http('POST', `/v1/agents/${agent}/messages`, message, { traceparent })).status).toBe(201);
      const call = await grpc.call(
        'EnqueueMessage',
        { agent_id: agent, kind: 'operator_prompt', body: { text: 'And the notes.' } },
        ADMIN,
        { traceparent },
      );
      expect(call.error).toBeNull();
      // The worker may not have been handed the events yet when it is asked whether it is idle: wait for its decision.
      await eventually(
        `a scheduler decision for ${agent}`,
        () => eventsOf(app, agent),
        (all) => all.some((event) => event.type === 'SchedulerDecisionRecorded'),
        { timeoutMs: 15_000 },
      );
      await settle(app);
      for (const event of await eventsOf(app, agent)) {
        expect(event.metadata).not.toHaveProperty('traceparent');
        expect(event.metadata).not.toHaveProperty('tracestate');
      }
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      grpc.close();
    }
  });
});
