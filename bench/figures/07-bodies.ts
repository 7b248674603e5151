import {
  type AgentCommand,
  type AgentEvent,
  type AgentState,
  type CommandMeta,
  decide,
  evolve,
  initialAgentState,
  reviveAgentState,
} from '@app/domain';
import type { Check } from '../report';
import type { FigureBody } from '../support/context';
import { median, msSince, nowNs } from '../support/stats';
import { planArtifact } from '../support/workload';

// The bodies part of figure 7 (docs/decisions/0042): an agent that has served many prompts, each
// in a turn of a few rounds, snapshotted as AgentState shape 11 holds it (no body of a processed
// message, no text of a closed round) and as shape 10 held it (every body and text kept).

const EPOCH = Date.UTC(2026, 0, 1);
const ROUNDS_PER_TURN = 3;
/** A prompt of about 400 characters and round reports of about 600: what a host sends and records. */
const PROMPT = 'Please look at the failing deploy of the billing service and tell me what broke. '.repeat(5);
const REPORT = 'Checked the logs and the last three commits; the migration ran twice because the lock expired. '.repeat(
  6,
);

/** Registers the agent, then serves `turns` prompts: enqueue, StartTurn, three rounds, TurnTerminal completed. */
function buildLife(agentId: string, turns: number): { state: AgentState; events: AgentEvent[] } {
  let state = initialAgentState();
  const events: AgentEvent[] = [];
  let n = 0;
  const run = (build: (meta: CommandMeta) => AgentCommand) => {
    const meta = { now: new Date(EPOCH + n * 1000).toISOString(), command_id: `${agentId}-c${n++}`, actor: 'bench' };
    for (const event of decide(build(meta), state)) {
      state = evolve(state, event);
      events.push(event);
    }
  };
  run((meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
  run((meta) => ({
    type: 'CreateWorkItem',
    data: {
      work_item_id: 'w-1',
      objective: 'Keep billing deploys green',
      plan_artifact: planArtifact(agentId, 'w-1', meta.now),
    },
    meta,
  }));
  run((meta) => ({ type: 'PickWorkItem', data: { work_item_id: 'w-1' }, meta }));
  for (let t = 0; t < turns; t++) {
    const [messageId, turnId] = [`m-${t}`, `turn-${t}`];
    run((meta) => ({
      type: 'EnqueueMessage',
      data: {
        message_id: messageId,
        kind: 'operator_prompt',
        body: `${PROMPT}(#${t})`,
        authority: 'operator_instruction',
      },
      meta,
    }));
    run((meta) => ({
      type: 'StartTurn',
      data: { turn_id: turnId, message_id: messageId, lease_ttl_ms: 60_000 },
      meta,
    }));
    for (let r = 0; r < ROUNDS_PER_TURN; r++) {
      const data = { turn_id: turnId, round_id: `r-${t}-${r}`, text: `${REPORT}(#${t}.${r})`, tool_calls: [] };
      run((meta) => ({ type: 'RecordRound', data, meta }));
    }
    run((meta) => ({ type: 'TurnTerminal', data: { turn_id: turnId, terminal_kind: 'completed' }, meta }));
  }
  return { state, events };
}

/** The state as shape 10 held it: every closed round's text and processed message's body, without the new fields. */
function asShape10(state: AgentState, events: readonly AgentEvent[]): unknown {
  const json = JSON.parse(JSON.stringify(state)) as {
    rounds: Record<string, Record<string, unknown>>;
    messages: Record<string, Record<string, unknown>>;
  };
  for (const round of Object.values(json.rounds)) {
    const event = events[round.revision as number];
    if (round.text === null && event?.type === 'AssistantRoundRecorded') round.text = event.data.text;
    delete round.text_digest;
    delete round.revision;
  }
  for (const message of Object.values(json.messages)) {
    const event = events[message.seq as number];
    if (message.body === null && event?.type === 'MessageQueued') message.body = event.data.body;
  }
  return json;
}

/** Median ms of reading each snapshot back (JSON.parse + reviveAgentState, as a cold load does), the two interleaved. */
function reviveMs(jsons: string[], repetitions: number): number[] {
  const times = jsons.map(() => [] as number[]);
  for (let r = 0; r < repetitions; r++) {
    jsons.forEach((json, i) => {
      const t0 = nowNs();
      reviveAgentState(JSON.parse(json));
      times[i].push(msSince(t0));
    });
  }
  return times.map(median);
}

export function bodiesPart(
  sizes: number[],
  log: (line: string) => void,
): Pick<FigureBody, 'checks' | 'tables' | 'notes'> & { method: string } {
  const rows: Array<Array<string | number>> = [];
  const ratios = new Map<number, { bytes: number; revive: number; shape11: number; shape10: number }>();
  for (const turns of sizes) {
    const t0 = nowNs();
    const { state, events } = buildLife(`bodies-${turns}`, turns);
    const [after, before] = [JSON.stringify(state), JSON.stringify(asShape10(state, events))];
    const [bytesAfter, bytesBefore] = [Buffer.byteLength(after), Buffer.byteLength(before)];
    const [reviveAfter, reviveBefore] = reviveMs([after, before], 9);
    log(`  bodies: ${turns} turns, ${events.length} events in ${(msSince(t0) / 1000).toFixed(1)} s`);
    ratios.set(turns, {
      bytes: bytesAfter / bytesBefore,
      revive: reviveAfter / reviveBefore,
      shape11: bytesAfter,
      shape10: bytesBefore,
    });
    rows.push([turns, events.length, bytesBefore / 1024, bytesAfter / 1024, reviveBefore, reviveAfter]);
  }
  const largest = sizes[sizes.length - 1];
  const at = ratios.get(largest)!;
  const label = `${largest.toLocaleString('en-US')} served prompts`;
  const checks: Check[] = [
    {
      name: `snapshot size without processed bodies and closed-round texts (shape 11 vs 10), ${label}`,
      measured: { value: at.shape11 / 1024, unit: 'KiB' },
      baseline: { value: at.shape10 / 1024, unit: 'KiB', label: 'shape 10 (bodies and texts kept)' },
      ratio: at.bytes,
    },
  ];
  return {
    method:
      ` Bodies (issue 20 item 3, docs/decisions/0042): in memory, one agent per size that serves prompts of about 400 characters, ` +
      `each in a turn of ${ROUNDS_PER_TURN} rounds of about 600 characters of text, then ends it (every message processed, every round ` +
      'closed; nothing archived). Its snapshot JSON as shape 11 holds it and as shape 10 held it (the same state with every text and ' +
      'body put back from the events, without the digest and revision fields); reading it back: medians of 9 JSON.parse + reviveAgentState, the two shapes interleaved.',
    checks,
    tables: [
      {
        title:
          'An agent that served many prompts: snapshot with (shape 10) and without (shape 11) processed bodies and closed-round texts',
        columns: ['served prompts', 'events', 'shape 10 KiB', 'shape 11 KiB', 'shape 10 read ms', 'shape 11 read ms'],
        rows,
      },
    ],
    notes: [
      `The snapshot keeps ${(at.bytes * 100).toFixed(0)}% of its shape-10 size at ${label} (reading it back: ` +
        `${(at.revive * 100).toFixed(0)}%); what is left grows with the turns, rounds and messages themselves (ids, statuses, ` +
        'times, digests) until archiving takes them (the rows above).',
    ],
  };
}
