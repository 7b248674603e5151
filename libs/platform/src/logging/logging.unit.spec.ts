import { Writable } from 'node:stream';
import { createLogger } from './logger';
import { PinoNestLogger } from './nest-logger.adapter';
import { loggablePath, requestIdFor } from './request-logging';
import type { IncomingMessage } from 'node:http';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'trace', role: 'all' }, stream) };
}

describe('the pino logger', () => {
  it('writes one JSON object per line with level label, time and role', () => {
    const { lines, logger } = capture();
    logger.info({ a: 1 }, 'hello');
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'hello', a: 1, role: 'all', service: 'agent-runtime' });
    expect(typeof lines[0]!.time).toBe('string');
  });

  it('redacts authorization headers and bodies whoever logs them', () => {
    const { lines, logger } = capture();
    logger.info(
      { req: { headers: { authorization: 'Bearer s3cret' }, body: { x: 's3cret' } }, authorization: 'Bearer s3cret' },
      'x',
    );
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });
});

describe('PinoNestLogger', () => {
  it("maps Nest's (message, stack, context) onto pino", () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped route', 'RouterExplorer');
    nest.error('boom', 'Error: boom\n    at x', 'ExceptionHandler');
    nest.verbose('fine', 'Ctx');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'Mapped route', context: 'RouterExplorer' }),
      expect.objectContaining({
        level: 'error',
        msg: 'boom',
        context: 'ExceptionHandler',
        stack: 'Error: boom\n    at x',
      }),
      expect.objectContaining({ level: 'trace', msg: 'fine', context: 'Ctx' }),
    ]);
  });
});

describe('request logging helpers', () => {
  it.each([
    ['/v1/agents/a-1?limit=5&token=x', '/v1/agents/a-1'],
    ['/callbacks/cap-s3cret', '/callbacks/[redacted]'],
    ['/callbacks/cap-s3cret/extra?x=1', '/callbacks/[redacted]/extra'],
    ['/v1/callbacks/cb1.YWdlbnQ.aW50ZW50.c2VjcmV0?x=1', '/v1/callbacks/[redacted]'],
    ['/V1/callbacks/cb1.a.b.c', '/V1/callbacks/[redacted]'],
    ['//v1//Callbacks//cb1.a.b.c', '//v1//Callbacks//[redacted]'],
    ['/v1/%63allbacks/cb1.a.b.c', '/v1/%63allbacks/[redacted]'],
    ['/v1/agents/a-1/cb1.a.b.c/x', '/v1/agents/a-1/[redacted]/x'],
  ])('logs %s as %s', (url, path) => {
    expect(loggablePath(url)).toBe(path);
  });

  it('reuses a sane x-request-id and replaces anything else', () => {
    const request = (value?: string) =>
      ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;
    expect(requestIdFor(request('req-123'))).toBe('req-123');
    expect(requestIdFor(request('bad id\n{"injected":1}'))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor(request())).toMatch(/^[0-9a-f-]{36}$/);
  });
});
