import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '@app/domain';
import { AGENT, artifact, at, cmd, call, schedulerStep, tcmd, history, wcmd } from '@app/domain/testing';
import { currentSchemaVersion, fromRepoRoot } from '@app/core';
import { derivedEventId } from '../audit/agent-export';
import { fromStoredEventJson, type StoredEventJson } from '../audit/stored-event-json';
import type { StoredEvent } from '@app/event-store';

/** fixtures/events/<EventType>/v<N>.json: one stored event per file (docs/decisions/0007). */
export const SAMPLES_DIR = fromRepoRoot('fixtures', 'events');

export interface EventSample {
  type: string;
  version: number;
  file: string;
  event: StoredEvent;
}

/** Every stored sample, by type then version. */
export function loadEventSamples(dir = SAMPLES_DIR): EventSample[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((type) =>
      readdirSync(join(dir, type))
        .filter((name) => /^v\d+\.json$/.test(name))
        .map((name) => {
          const file = join(dir, type, name);
          const event = fromStoredEventJson(JSON.parse(readFileSync(file, 'utf8')), file);
          return { type, version: Number(name.slice(1, -'.json'.length)), file, event };
        })
        .sort((a, b) => a.version - b.version),
    );
}

/**
 * One agent's life through the real deciders, touching every event the domain decides today.
 * Events no command decides yet (message moves of the turn slice) are written by hand.
 */
export function sampleScenario(): AgentEvent[] {
  const decided = history(
    [],
    cmd.register(),
    cmd.create('w-1', { todo_list: [{ text: 'draft', state: 'in_progress' }] }),
    cmd.create('w-2'),
    cmd.pick('w-1'),
    cmd.update('w-2', {
      plan_status: 'ready',
      plan_artifact: artifact('w-2', 'sha256:bbb', { byte_size: 6, preview: 'a plan' }),
    }),
    wcmd.waitFor('i-ext', 'w-2', {
      wake: 'external',
      resource: 'pr-7',
      source: 'github',
      callback_token_hash: 'sha256:cb',
    }),
    wcmd.trigger('i-ext', { payload: { state: 'merged' } }),
    wcmd.cancelIntent('i-ext', 'merged'),
    wcmd.createTask('t-ok', { work_item_id: 'w-1', summary: 'run tests' }),
    wcmd.waitFor('i-task', null, { wake: 'task_result', resource: 't-ok' }),
    wcmd.taskStatus('t-ok', 'running'),
    wcmd.taskStatus('t-ok', 'completed', { detail: 'green' }),
    wcmd.createTask('t-fail'),
    wcmd.taskStatus('t-fail', 'cancelling'),
    wcmd.taskStatus('t-fail', 'failed'),
    wcmd.createTask('t-cancel'),
    wcmd.taskStatus('t-cancel', 'cancelled'),
    wcmd.createTask('t-int'),
    wcmd.taskStatus('t-int', 'interrupted'),
    wcmd.createTimer('tm-1', { fire_at: at(90), resume_text: 'look again' }),
    wcmd.fireTimer('tm-1', at(91)),
    wcmd.createTimer('tm-2', { fire_at: at(120) }),
    wcmd.cancelTimer('tm-2'),
    wcmd.enqueue('m-op', { body: 'please summarise' }),
    wcmd.wakeHint({ body: 'ci finished' }),
    wcmd.enqueue('m-drop'),
    wcmd.drop('m-drop'),
    wcmd.control('pause'),
    wcmd.control('resume'),
    wcmd.control('stop'),
    wcmd.control('start'),
    cmd.complete('w-1'),
  );
  const move = (type: string, message: string, turn: string | null) =>
    ({ type, data: { agent_id: AGENT, message_id: message, turn_id: turn, at: at(95) } }) as AgentEvent;
  return [
    ...decided,
    move('MessageDequeued', 'm-op', 'turn-1'),
    move('MessageInterjected', 'm-op', 'turn-1'),
    move('MessageProcessed', 'm-op', 'turn-1'),
    move('MessageAborted', 'm-op', 'turn-1'),
  ];
}

/** Turns, report promotion, lease expiry and the scheduler's own events, on a fresh agent. */
export function turnScenario(): AgentEvent[] {
  let events = history([], cmd.register());
  events = schedulerStep(events, at(61));
  events = history(events, cmd.create('w-3'), cmd.pick('w-3'));
  events = schedulerStep(events, at(62), 'm-tick');
  events = history(
    events,
    tcmd.startTurn('turn-1', 'm-tick', at(63)),
    tcmd.heartbeat('turn-1', at(64)),
    tcmd.round('turn-1', 'r-1', 'Report: the work is done', [call('tc-1')], at(65)),
    tcmd.completeIn('w-3', 'r-1', at(66)),
    tcmd.closeRound('turn-1', 'r-1', at(67)),
    tcmd.terminal('turn-1', 'completed', 'bye', at(68)),
  );
  const enqueue = { ...wcmd.enqueue('m-2'), meta: { now: at(69), command_id: 'cmd-m-2' } };
  return history(events, enqueue, tcmd.startTurn('turn-2', 'm-2', at(70)), tcmd.expire('turn-2', at(200)));
}

/** Every scenario as stored events: one stream each (deterministic ids, positions and times). */
export function storedScenarios(): StoredEventJson[] {
  return [toStored(sampleScenario(), AGENT, 1000), toStored(turnScenario(), 'agent-2', 2000)].flat();
}

function toStored(events: AgentEvent[], agentId: string, firstPosition: number): StoredEventJson[] {
  return events.map((event, index) => {
    const data = event.data as Record<string, unknown>;
    return {
      id: derivedEventId(agentId, `fixture:${index}:${event.type}`),
      stream: `agent-${agentId}`,
      type: event.type,
      data: data.agent_id === AGENT ? { ...data, agent_id: agentId } : data,
      metadata: {
        command_id: `cmd-${index}`,
        correlation_id: `cmd-${index}`,
        causation_id: `cmd-${index}`,
        actor: 'fixture',
        schema_version: currentSchemaVersion(event.type),
      },
      revision: String(index),
      position: String(firstPosition + index),
      recorded_at: String(data.at ?? at(0)),
    };
  });
}
