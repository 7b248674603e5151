import { AppendBatcher, type AppendOutcome, type BatchedAppend } from './append-batcher';

interface Item extends BatchedAppend<string> {
  readonly name: string;
}

/** A sender whose calls the spec answers by hand; it records each call's appends by name. */
function harness(options: { concurrency?: number; maxEvents?: number; retryAlone?: (error: unknown) => boolean } = {}) {
  const calls: { names: string[]; finish(error?: Error): void }[] = [];
  const batcher = new AppendBatcher<string, Item>({
    send: (batch) =>
      new Promise<AppendOutcome<string>[]>((resolve, reject) => {
        calls.push({
          names: batch.map((a) => a.name),
          finish: (error) => (error ? reject(error) : resolve(batch.map((a) => ({ ok: true, value: `ok ${a.name}` })))),
        });
      }),
    retryAlone: options.retryAlone ?? (() => true),
    concurrency: options.concurrency ?? 1,
    maxEvents: options.maxEvents,
  });
  const add = (name: string, stream: string, events = 1) =>
    new Promise<string>((resolve, reject) => batcher.add({ name, stream, events, resolve, reject }));
  return { batcher, calls, add };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('AppendBatcher (group commit of the Postgres store)', () => {
  it('sends an append that finds a free slot at once, alone', async () => {
    const { calls, add } = harness();
    const first = add('a', 's-a');
    expect(calls.map((c) => c.names)).toEqual([['a']]);
    calls[0].finish();
    await expect(first).resolves.toBe('ok a');
  });

  it('sends the appends made while a call is in flight together in the next call, in the order they were made', async () => {
    const { batcher, calls, add } = harness();
    const results = [add('a', 's-a'), add('b', 's-b'), add('c', 's-c'), add('d', 's-d')];
    expect(calls.map((c) => c.names)).toEqual([['a']]);
    calls[0].finish();
    await tick();
    expect(calls.map((c) => c.names)).toEqual([['a'], ['b', 'c', 'd']]);
    calls[1].finish();
    await expect(Promise.all(results)).resolves.toEqual(['ok a', 'ok b', 'ok c', 'ok d']);
    expect(batcher.stats).toEqual({ calls: 2, appends: 4 });
  });

  it('never puts two appends of one stream in a call: the later one waits for the next call, and nothing overtakes it', async () => {
    const { calls, add } = harness();
    void add('busy', 's-x');
    const waiting = [add('a1', 's-a'), add('b', 's-b'), add('a2', 's-a'), add('c', 's-c'), add('a3', 's-a')];
    calls[0].finish();
    await tick();
    expect(calls[1].names).toEqual(['a1', 'b', 'c']);
    calls[1].finish();
    await tick();
    expect(calls[2].names).toEqual(['a2']);
    calls[2].finish();
    await tick();
    expect(calls[3].names).toEqual(['a3']);
    calls[3].finish();
    await expect(Promise.all(waiting)).resolves.toHaveLength(5);
  });

  it('keeps a call under maxEvents; an append larger than that goes alone, and its stream keeps its order', async () => {
    const { calls, add } = harness({ maxEvents: 4 });
    void add('busy', 's-x');
    void add('a', 's-a', 3);
    void add('b', 's-b', 2);
    void add('big', 's-c', 9);
    void add('d', 's-d', 1);
    void add('c2', 's-c', 1);
    calls[0].finish();
    await tick();
    expect(calls[1].names).toEqual(['a', 'd']);
    calls[1].finish();
    await tick();
    expect(calls[2].names).toEqual(['b']);
    calls[2].finish();
    await tick();
    expect(calls[3].names).toEqual(['big']);
    calls[3].finish();
    await tick();
    expect(calls[4].names).toEqual(['c2']);
  });

  it('retries a call that failed as a whole one append at a time, so each gets its own answer', async () => {
    const { calls, add } = harness();
    void add('busy', 's-x');
    const a = add('a', 's-a');
    const b = add('b', 's-b');
    calls[0].finish();
    await tick();
    calls[1].finish(new Error('rolled back'));
    await tick();
    expect(calls.slice(2).map((c) => c.names)).toEqual([['a'], ['b']]);
    calls[2].finish();
    calls[3].finish(new Error('b is wrong'));
    await expect(a).resolves.toBe('ok a');
    await expect(b).rejects.toThrow('b is wrong');
  });

  it('gives every append of a failed call the error when the failure is not one to retry (an unknown outcome)', async () => {
    const { calls, add } = harness({ retryAlone: (error) => (error as Error).message !== 'connection lost' });
    void add('busy', 's-x');
    const a = add('a', 's-a');
    const b = add('b', 's-b');
    calls[0].finish();
    await tick();
    calls[1].finish(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    await expect(b).rejects.toThrow('connection lost');
    expect(calls).toHaveLength(2);
  });

  it('settles each append with its own outcome, and sends the next call before the answers reach their callers', async () => {
    const sent: string[][] = [];
    let answer: (outcomes: AppendOutcome<string>[]) => void = () => undefined;
    const batcher = new AppendBatcher<string, Item>({
      send: (batch) => {
        sent.push(batch.map((a) => a.name));
        return new Promise((resolve) => (answer = resolve));
      },
      retryAlone: () => true,
      concurrency: 1,
    });
    const add = (name: string) =>
      new Promise<string>((resolve, reject) => batcher.add({ name, stream: name, events: 1, resolve, reject }));
    const a = add('a');
    const b = add('b');
    const c = add('c');
    answer([{ ok: true, value: 'a done' }]);
    await expect(a).resolves.toBe('a done');
    expect(sent).toEqual([['a'], ['b', 'c']]);
    answer([
      { ok: false, error: new Error('b refused') },
      { ok: true, value: 'c done' },
    ]);
    await expect(b).rejects.toThrow('b refused');
    await expect(c).resolves.toBe('c done');
  });

  it('keeps up to `concurrency` calls in flight', async () => {
    const { calls, add } = harness({ concurrency: 2 });
    void add('a', 's-a');
    void add('b', 's-b');
    void add('c', 's-c');
    void add('d', 's-d');
    expect(calls.map((c) => c.names)).toEqual([['a'], ['b']]);
    calls[1].finish();
    await tick();
    expect(calls.map((c) => c.names)).toEqual([['a'], ['b'], ['c', 'd']]);
  });
});
