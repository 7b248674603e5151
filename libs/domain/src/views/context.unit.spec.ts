import type { AgentCommand } from '../agent/agent.commands';
import { replay } from '../agent/agent.evolve';
import { artifact, cmd, registered, todo } from '../testing/fixtures';
import { call, tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import {
  contextProjection,
  DEFAULT_CONTEXT_BUDGET_TOKENS,
  estimateTokens,
  roundTextsOf,
  traceRoundsToRead,
} from './context';

const many = (prefix: string, n: number, extra: (id: string) => AgentCommand[] = () => []): AgentCommand[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).flatMap((id) => [cmd.create(id), ...extra(id)]);

const PREVIEW = 'Step 1: reproduce.\nStep 2: fix.';
const events = history(
  [registered()],
  // two completed items with promoted reports, one without
  cmd.create('w-c1'),
  cmd.create('w-c2'),
  cmd.create('w-c3'),
  wcmd.enqueue('m-0'),
  tcmd.startTurn('t-0', 'm-0'),
  cmd.pick('w-c1'),
  tcmd.round('t-0', 'r-c1', 'Report c1.'),
  tcmd.completeIn('w-c1', 'r-c1'),
  cmd.pick('w-c2'),
  tcmd.round('t-0', 'r-c2', 'Report c2.'),
  tcmd.completeIn('w-c2', 'r-c2'),
  tcmd.closeRound('t-0', 'r-c2'),
  cmd.complete('w-c3'),
  tcmd.terminal('t-0', 'completed'),
  ...many('w-q', 6),
  ...many('w-b', 4, (id) => [cmd.update(id, { blocked_by: `waiting on ${id}` })]),
  cmd.create('w-op', { plan_status: 'needs_input' }),
  cmd.create('w-tr'),
  wcmd.waitFor('i-tr', 'w-tr', {
    wake: 'external',
    resource: 'pr-1',
    callback_token_hash: 'sha256:x',
    delivery_mode: 'enqueue_message',
  }),
  wcmd.trigger('i-tr', { message_id: 'm-cb' }),
  wcmd.drop('m-cb'),
  cmd.create('w-cur', {
    todo_list: [todo('read', 'completed'), todo('fix', 'in_progress'), todo('test')],
    plan_artifact: artifact('w-cur', 'sha256:p', { preview: PREVIEW, byte_size: 40 }),
  }),
  cmd.pick('w-cur'),
  wcmd.enqueue('m-1'),
  tcmd.startTurn('t-1', 'm-1'),
  tcmd.round('t-1', 'r-1', 'Looking at the failing test.', [call('c-1', 'grep')]),
  tcmd.terminal('t-1', 'completed', 'Found the cause.'),
);
const state = replay(events);

describe('the context projection', () => {
  // The state keeps no text of a closed round: the caller reads the rounds it names (ADR 0042).
  const context = contextProjection(state, { round_texts: roundTextsOf(events) });

  it('names the closed rounds whose text the trace shows, at the revision of their AssistantRoundRecorded', () => {
    const revision = events.findIndex((e) => e.type === 'AssistantRoundRecorded' && e.data.round_id === 'r-1');
    expect(state.rounds.get('r-1')).toMatchObject({ status: 'closed', text: null, revision });
    expect(traceRoundsToRead(state)).toEqual([{ round_id: 'r-1', revision }]);
  });

  it('has the sections of docs/domain-contract.md §6 in priority order', () => {
    expect(context.sections.map((s) => s.name)).toEqual([
      'current_work_item',
      'triggered_candidates',
      'queued_runnable',
      'waiting_for_operator',
      'blocked',
      'recently_completed',
    ]);
    expect(context).toMatchObject({
      budget_tokens: DEFAULT_CONTEXT_BUDGET_TOKENS,
      omitted_sections: [],
      truncated: false,
      over_budget: false,
    });
  });

  it('gives the current item in full: objective, readiness, plan descriptor with preview, todos, waits, process trace', () => {
    expect(context.sections[0].content).toMatchObject({
      id: 'w-cur',
      readiness: 'runnable',
      focus_mode: 'runnable',
      plan_status: 'draft',
      plan_artifact: { hash: 'sha256:p', preview: PREVIEW, relative_path: 'work-items/w-cur/plan.md' },
      current_todo: { text: 'fix', state: 'in_progress' },
      blocked_by: null,
      waiting_intents: [],
      process_trace: {
        rounds: [
          { round_id: 'r-1', turn_id: 't-1', text: 'Looking at the failing test.', tool_calls: [call('c-1', 'grep')] },
        ],
        briefs: [{ id: 'brief_turn_t-1', kind: 'result', text: 'Found the cause.' }],
      },
    });
    expect(context.sections[0].text).toContain('- [>] fix (current)');
    expect(context.sections[0].text).toContain(PREVIEW);
  });

  it('keeps candidate lists compact: triggered top 3, queued top 5, operator top 5, blocked and completed as count + top 3', () => {
    const byName = Object.fromEntries(
      context.sections.map((s) => [s.name, s.content as { count: number; items: { id: string }[] }]),
    );
    expect(byName.triggered_candidates).toMatchObject({ count: 1, items: [{ id: 'w-tr', trigger_count: 1 }] });
    expect(byName.queued_runnable.count).toBe(6);
    expect(byName.queued_runnable.items.map((i) => i.id)).toEqual(['w-q1', 'w-q2', 'w-q3', 'w-q4', 'w-q5']);
    expect(byName.waiting_for_operator.items.map((i) => i.id)).toEqual(['w-op']);
    expect(byName.blocked).toMatchObject({ count: 4 });
    expect(byName.blocked.items).toHaveLength(3);
    expect(byName.recently_completed).toEqual({
      count: 2,
      items: [
        expect.objectContaining({ id: 'w-c1', report: 'Report c1.' }),
        expect.objectContaining({ id: 'w-c2', report: 'Report c2.' }),
      ],
    });
  });

  it('estimates tokens as ceil(chars / 4) of the rendered text', () => {
    expect(context.estimated_tokens).toBe(Math.ceil([...context.text].length / 4));
    expect(estimateTokens('abcde')).toBe(2);
    expect(context.text).toBe(context.sections.map((s) => s.text).join('\n\n'));
  });

  it('never includes a plan body, only the descriptor and preview', () => {
    const long = replay([
      ...events,
      ...history(
        events,
        cmd.update('w-cur', {
          plan_artifact: artifact('w-cur', 'sha256:q', {
            preview: 'p'.repeat(1600),
            preview_complete: false,
            byte_size: 9000,
          }),
        }),
      ).slice(events.length),
    ]);
    const text = contextProjection(long).text;
    expect(text).toContain('preview truncated: read the file for the rest');
    expect(text).not.toContain('p'.repeat(1601));
  });
});

describe('the context projection under budget pressure', () => {
  const texts = { round_texts: roundTextsOf(events) };
  const full = contextProjection(state, texts);

  it('cuts sections from the end', () => {
    const cut = contextProjection(state, { ...texts, budget_tokens: full.estimated_tokens - 1 });
    expect(cut.omitted_sections).toEqual(['recently_completed']);
    expect(cut).toMatchObject({ truncated: true, over_budget: false });
    expect(cut.estimated_tokens).toBeLessThanOrEqual(full.estimated_tokens - 1);
  });

  it('keeps cutting down to the current item, which is never cut', () => {
    const current = full.sections[0].estimated_tokens;
    const cut = contextProjection(state, { ...texts, budget_tokens: current });
    expect(cut.sections.map((s) => s.name)).toEqual(['current_work_item']);
    expect(cut.omitted_sections).toEqual([
      'recently_completed',
      'blocked',
      'waiting_for_operator',
      'queued_runnable',
      'triggered_candidates',
    ]);
    expect(cut.trimmed_trace_entries).toBe(0);
  });

  it('then drops the oldest process trace entries, and says when even that is not enough', () => {
    const cut = contextProjection(state, { ...texts, budget_tokens: full.sections[0].estimated_tokens - 5 });
    expect(cut.trimmed_trace_entries).toBeGreaterThan(0);
    const tiny = contextProjection(state, { ...texts, budget_tokens: 1 });
    expect(tiny).toMatchObject({ over_budget: true, trimmed_trace_entries: 2 });
    expect(tiny.sections[0].content).toMatchObject({ id: 'w-cur', process_trace: { rounds: [], briefs: [] } });
  });

  it('says so when there is no current item', () => {
    const none = contextProjection(replay([registered()]));
    expect(none.sections).toEqual([expect.objectContaining({ name: 'current_work_item', content: null })]);
    expect(none.text).toContain('None: no work item is in focus.');
  });
});
