import fc from 'fast-check';
import type { AgentCommand } from '../agent/agent.commands';
import { decide } from '../agent/agent.decide';
import type { AgentEvent } from '../agent/agent.events';
import { evolve, replay } from '../agent/agent.evolve';
import { putRecord } from '../agent/agent.records';
import { type AgentState, type MessageBody, reviveAgentState } from '../agent/agent.state';
import { renderRecordRoundReply, renderTurnTerminalReply } from './turn.replies';
import { decideNextAction } from '../scheduler/decide-next-action';
import { isDomainError } from '../shared/domain-error';
import { at, cmd, meta, registered } from '../testing/fixtures';
import { type Action, actionArb, play, type World } from '../testing/random-actions';
import { tcmd } from '../testing/turn-fixtures';
import { apply, streamOf } from '../testing/worker-simulation';
import type { RecordRound, TurnTerminalCommand } from '../turn/turn.commands';
import { toAgentSummaryView } from '../views/agent.view';
import { closureOf } from '../views/closure';
import { contextProjection, type RoundTexts, roundTextsOf, traceRoundsToRead } from '../views/context';
import { explainState } from '../views/explanation';
import { toMessageView } from '../views/message.view';
import { remindersOf } from '../views/reminders';
import { listBriefs, toRoundView, toTurnView } from '../views/turn.view';

// AgentState shape 11 (ADR 0042): a processed message keeps no body, a closed round no text. The
// stream keeps both: the application reads them back by revision (a round's `revision`, a
// message's `seq`). Over random lives with messages, rounds, repeats and archiving, every decision
// and every served view is the same on the full fold, on a snapshot + tail, and on a reference
// state that still holds every text and body (what shape 10 kept).

type Extra =
  | { t: 'repeatRound'; n: number; same: boolean }
  | { t: 'archive'; cutOff: number }
  | { t: 'focusedRound'; id: string; text: boolean };
type Step = Action | Extra;

const extraArb: fc.Arbitrary<Extra> = fc.oneof(
  fc.record({ t: fc.constant('repeatRound' as const), n: fc.nat(7), same: fc.boolean() }),
  fc.record({ t: fc.constant('archive' as const), cutOff: fc.nat(60) }),
  fc.record({ t: fc.constant('focusedRound' as const), id: fc.constantFrom('w-1', 'w-2'), text: fc.boolean() }),
);
const stepArb: fc.Arbitrary<Step> = fc.oneof({ weight: 4, arbitrary: actionArb }, { weight: 1, arbitrary: extraArb });
const lives = fc.array(stepArb, { minLength: 1, maxLength: 80, size: 'max' });
/** Runs of the property: about 25 ms each on the 2-core machine (2,000 took about a minute). */
const RUNS = 1000;
const start = (): World => ({ stream: streamOf([registered()]), minute: 60 });

const bodyAt = (events: readonly AgentEvent[], seq: number): MessageBody | null => {
  const event = events[seq];
  return event?.type === 'MessageQueued' ? event.data.body : null;
};
const textAt = (events: readonly AgentEvent[], revision: number): string => {
  const event = events[revision];
  return event?.type === 'AssistantRoundRecorded' ? event.data.text : '';
};

/** A RecordRound naming a recorded round again, with its own text or another one. */
function repeatRound(events: readonly AgentEvent[], state: AgentState, n: number, same: boolean): RecordRound {
  const rounds = state.rounds.values();
  const round = rounds[n % Math.max(1, rounds.length)];
  const text = same && round ? textAt(events, round.revision) : 'Another report.';
  return tcmd.round(round?.turn_id ?? 'turn-none', round?.round_id ?? 'r-none', text, round?.tool_calls) as RecordRound;
}

function playStep(w: World, step: Step): World {
  if (step.t === 'repeatRound')
    return { ...w, stream: apply(w.stream, repeatRound(w.stream.events, w.stream.state, step.n, step.same)) };
  if (step.t === 'focusedRound') {
    // The item in focus (created if need be), then a round on the open turn: traces of closed rounds.
    const seq = w.stream.seq + 1;
    const turnId = w.stream.state.open_turn_id ?? 'turn-none';
    const focused = [cmd.create(step.id), cmd.pick(step.id, 'switch')].reduce(
      (s, c) => apply(s, { ...c, meta: meta(at(w.minute)) }),
      { ...w.stream, seq },
    );
    const round = tcmd.round(turnId, `r-f${seq}`, step.text ? `Report ${seq}.` : undefined, [], at(w.minute));
    return { ...w, stream: apply(focused, round) };
  }
  if (step.t === 'archive') {
    const command: AgentCommand = {
      type: 'ArchiveWorkItems',
      data: { completed_before: at(60 + step.cutOff) },
      meta: meta(at(w.minute)),
    };
    return { ...w, stream: apply(w.stream, command) };
  }
  return play(w, step);
}

/** The state with every text and body put back from the stream: what a state keeping them would hold. */
function reference(state: AgentState, events: readonly AgentEvent[]): AgentState {
  let full = state;
  for (const round of state.rounds.values())
    if (round.text === null)
      full = putRecord(full, 'rounds', round.round_id, { ...round, text: textAt(events, round.revision) });
  for (const message of state.messages.values())
    if (message.body === null)
      full = putRecord(full, 'messages', message.id, { ...message, body: bodyAt(events, message.seq) });
  return full;
}

/** What the application hands the context: the texts of the rounds it names, read by revision. */
const textsRead = (state: AgentState, events: readonly AgentEvent[]): RoundTexts =>
  roundTextsOf(traceRoundsToRead(state).map((round) => events[round.revision]));

/** Every view served from the state, texts and bodies read back as the application and read models do. */
function served(state: AgentState, events: readonly AgentEvent[], now: string, texts?: RoundTexts) {
  const recorded = roundTextsOf(events);
  const roundText = (id: string, own: string | null) => own ?? recorded.get(id) ?? '';
  return {
    decision: decideNextAction(state, now),
    closure: closureOf(state),
    explained: explainState(state, now),
    summary: toAgentSummaryView(state),
    reminders: remindersOf(state),
    context: contextProjection(state, { round_texts: texts }),
    tight: contextProjection(state, { budget_tokens: 150, round_texts: texts }),
    briefs: listBriefs(state),
    turns: state.turns.values().map(toTurnView),
    rounds: state.rounds.values().map((r) => toRoundView(r, roundText(r.round_id, r.text))),
    messages: state.messages.values().map((m) => toMessageView(m, m.body ?? bodyAt(events, m.seq))),
  };
}

type Outcome = { events: AgentEvent[]; reply: unknown } | { refused: string };

/** A command's outcome: its events and reply (bodies read back by `seq`), or its refusal. */
function outcome(command: AgentCommand, state: AgentState, events: readonly AgentEvent[]): Outcome {
  try {
    const decided = decide(command, state);
    const after = decided.reduce(evolve, state);
    if (command.type === 'RecordRound')
      return { events: decided, reply: renderRecordRoundReply(command, state, after, decided) };
    const reply = renderTurnTerminalReply(command as TurnTerminalCommand, state, after, decided);
    const message = reply.message && {
      ...reply.message,
      body: reply.message.body ?? bodyAt(events, reply.message.seq),
    };
    return { events: decided, reply: { ...reply, message } };
  } catch (error) {
    if (isDomainError(error)) return { refused: error.code };
    throw error;
  }
}

/** Repeats of every round (same and other text) and the terminal of every turn. */
function probes(state: AgentState, events: readonly AgentEvent[], now: string): AgentCommand[] {
  const rounds = state.rounds
    .values()
    .flatMap((_, i) => [true, false].map((same) => repeatRound(events, state, i, same)));
  const terminals = state.turns.values().map((t) => tcmd.terminal(t.turn_id, 'completed', undefined, now));
  return [...rounds, ...terminals];
}

describe('the state without processed-message bodies and closed-round texts (property)', () => {
  it('decides and serves the same on the full fold, a snapshot + tail and a state that keeps every text', () => {
    fc.assert(
      fc.property(lives, fc.nat(400), fc.nat(120), (steps, cutAt, minutes) => {
        const { events, state } = steps.reduce(playStep, start()).stream;
        expect(JSON.stringify(replay(events))).toBe(JSON.stringify(state));
        const cut = cutAt % (events.length + 1);
        const snapshot = reviveAgentState(JSON.parse(JSON.stringify(replay(events.slice(0, cut)))));
        const tailed = events.slice(cut).reduce(evolve, snapshot);
        expect(JSON.stringify(tailed)).toBe(JSON.stringify(state));

        for (const message of state.messages.values())
          expect(message.body === null).toBe(message.status === 'processed');
        for (const round of state.rounds.values()) expect(round.text === null).toBe(round.status === 'closed');
        const full = reference(state, events);
        const now = at(60 + minutes);
        const expected = served(full, events, now);
        expect(served(state, events, now, textsRead(state, events))).toEqual(expected);
        expect(served(tailed, events, now, textsRead(tailed, events))).toEqual(expected);
        for (const probe of probes(state, events, now)) {
          const was = outcome(probe, full, events);
          expect(outcome(probe, state, events)).toEqual(was);
          expect(outcome(probe, tailed, events)).toEqual(was);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
