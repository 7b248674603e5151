import { openApiValidator } from './openapi';

/** The validator the reply spec relies on fails where it should (a passing reply spec means something). */
describe('openApiValidator', () => {
  const document = {
    paths: {
      '/things/{id}': {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id', 'at', 'parent'],
          properties: {
            id: { type: 'string' },
            at: { type: 'string', format: 'date-time' },
            parent: { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Ref' }] },
            count: { type: 'integer', nullable: true },
          },
        },
        Ref: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'object', additionalProperties: true } },
        },
      },
      responses: {
        NotFound: {
          description: 'x',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
  const json = 'application/json; charset=utf-8';
  const good = { id: 't', at: '2026-01-01T00:00:00.000Z', parent: null, count: null };
  const check = (status: number, body: unknown, contentType = json) =>
    openApiValidator(document).check('GET', '/things/{id}', status, contentType, body);

  it('accepts a reply that matches, nulls where nullable, a referenced response', () => {
    expect(() => check(200, good)).not.toThrow();
    expect(() => check(200, { ...good, parent: { id: 'p' }, count: 2 })).not.toThrow();
    expect(() => check(404, { error: { code: 'not_found' } })).not.toThrow();
  });

  it.each([
    ['an undocumented field', { ...good, extra: 1 }],
    ['a missing field', { id: 't', at: good.at, count: null }],
    ['null where not nullable', { ...good, id: null }],
    ['a malformed date-time', { ...good, at: 'yesterday' }],
    ['a string for an integer', { ...good, count: '2' }],
    ['an undocumented field in a nullable reference', { ...good, parent: { id: 'p', more: true } }],
  ])('refuses %s', (_what, body) => {
    expect(() => check(200, body)).toThrow(/does not match its schema/);
  });

  it('refuses a status or a media type the document does not list', () => {
    expect(() => check(409, { error: {} })).toThrow(/not documented/);
    expect(() => check(200, 'text', 'text/plain')).toThrow(/not documented/);
  });
});
