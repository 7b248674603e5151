import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_DESCRIPTION } from '@app/application';
import { DECIMAL_PATTERN, POSITION_DESCRIPTION, REPLY_SCHEMAS } from '@app/contracts';
import { ID_PATTERN } from '@app/domain';

// What the decorators cannot say once per route: the transforms that complete the document
// Nest builds from the controllers (docs/api.md "Conventions"). Each one only adds.

const COMMAND_METHODS = ['post', 'put', 'patch', 'delete'] as const;
const METHODS = ['get', ...COMMAND_METHODS] as const;

type Visit = (operation: OperationObject, path: string, method: (typeof METHODS)[number]) => void;

function eachOperation(document: OpenAPIObject, visit: Visit): void {
  for (const [path, item] of Object.entries(document.paths))
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) visit(operation, path, method);
    }
}

/** A command of an agent (or the callback capability): it takes `Idempotency-Key` and `X-Correlation-Id`. */
export const isCommand = (path: string, method: string): boolean =>
  (COMMAND_METHODS as readonly string[]).includes(method) &&
  (path.startsWith('/v1/agents') || path.startsWith('/v1/callbacks'));

const COMMAND_KEY_SCHEMA = { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]{1,200}$' } as const;

function addParameter(operation: OperationObject, parameter: ParameterObject): void {
  const parameters = (operation.parameters ??= []);
  const name = parameter.name.toLowerCase();
  const existing = parameters.find((p) => 'in' in p && p.in === parameter.in && p.name.toLowerCase() === name);
  if (existing && 'in' in existing) Object.assign(existing, { ...parameter, ...existing, name: parameter.name });
  else parameters.push(parameter);
}

/** Every command takes `Idempotency-Key`, and `X-Correlation-Id` (same rules) but on the callback capability. */
export function describeCommandHeaders(document: OpenAPIObject): OpenAPIObject {
  eachOperation(document, (operation, path, method) => {
    if (!isCommand(path, method)) return;
    addParameter(operation, {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: IDEMPOTENCY_KEY_DESCRIPTION,
      schema: { ...COMMAND_KEY_SCHEMA },
    });
    if (path.startsWith('/v1/callbacks')) return;
    addParameter(operation, {
      name: 'X-Correlation-Id',
      in: 'header',
      required: false,
      description: "becomes the events' metadata.correlation_id (1..200 visible ASCII characters)",
      schema: { ...COMMAND_KEY_SCHEMA },
    });
  });
  return document;
}

/**
 * Read-your-writes (docs/api.md "Consistency of reads"): every command reply carries `position`
 * (in the reply schemas); every GET under /v1 takes `min_position` and answers once the read
 * models include it, else 503 `read_model_lagging` with Retry-After.
 */
export function describeReadYourWrites(document: OpenAPIObject): OpenAPIObject {
  eachOperation(document, (operation, path, method) => {
    if (method !== 'get' || !path.startsWith('/v1/')) return;
    addParameter(operation, {
      name: 'min_position',
      in: 'query',
      required: false,
      description:
        'answer once the read models include this store position (a `position` from a command reply): waits ' +
        `a bounded time (default 5 s), then 503 read_model_lagging with Retry-After. ${POSITION_DESCRIPTION}`,
      schema: { type: 'string', pattern: DECIMAL_PATTERN },
    });
  });
  return document;
}

const RETRY_AFTER = { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } };
const envelope = (description: string, retryAfter = false): ResponseObject => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  ...(retryAfter && { headers: { 'Retry-After': RETRY_AFTER } }),
});

/** The refusals routes share, as components: every 4xx/5xx reply is the error envelope. */
const SHARED_RESPONSES: Record<string, ResponseObject> = {
  ValidationFailed: envelope(
    'validation_failed: a malformed field, id, query parameter or header; an unknown JSON field; bad JSON',
  ),
  Unauthorized: envelope('unauthorized: no usable bearer token'),
  Forbidden: envelope(
    'forbidden: the token may not act on that agent, its role does not accept the operation, or the route is admin-only',
  ),
  PayloadTooLarge: envelope('payload_too_large: a body over 1 MiB'),
  UnsupportedMediaType: envelope('unsupported_media_type: a content type the route does not parse'),
  RateLimited: envelope('rate_limited: over the rate of the token (or of the address, failed logins)', true),
  Internal: envelope('internal: anything unexpected (a fixed message)'),
  CommandUnavailable: envelope(
    'unavailable: the event store or Postgres is unreachable; contention: concurrent writers outlasted the retries (Retry-After)',
    true,
  ),
  ReadUnavailable: envelope(
    'unavailable: the event store or Postgres is unreachable; read_model_lagging: the read models did not reach ' +
      'min_position in time (Retry-After)',
    true,
  ),
  Unavailable: envelope('unavailable: the event store or Postgres is unreachable', true),
  AgentNotFound: envelope('not_found: unknown agent (or another resource the path names)'),
  StaleRevision: envelope('conflict: a stale expected_revision (details.current_revision)'),
  IdempotencyKeyReused: envelope(
    'idempotency_key_reused: the Idempotency-Key came with another request (another command or other data)',
  ),
};

/** The routes that name an agent (in the path, or the body of POST /v1/agents) or are admin-only can refuse a token. */
const canForbid = (path: string, method: string): boolean =>
  path.includes('{agent_id}') || path.startsWith('/v1/admin/') || (path === '/v1/agents' && method === 'post');

const hasJsonBody = (operation: OperationObject): boolean =>
  operation.requestBody !== undefined &&
  'content' in operation.requestBody &&
  operation.requestBody.content['application/json'] !== undefined;

function shared(operation: OperationObject, status: string, name: keyof typeof SHARED_RESPONSES): void {
  operation.responses[status] ??= { $ref: `#/components/responses/${name}` };
}

/** Adds the shared refusals each route can give (a route's own decorators name the others, and win). */
export function describeErrors(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    responses: { ...document.components?.responses, ...SHARED_RESPONSES },
  };
  eachOperation(document, (operation, path, method) => {
    shared(operation, '500', 'Internal');
    if (!path.startsWith('/v1/')) return;
    shared(operation, '400', 'ValidationFailed');
    if (operation.security === undefined || operation.security.length > 0) {
      shared(operation, '401', 'Unauthorized');
      if (canForbid(path, method)) shared(operation, '403', 'Forbidden');
    }
    if (isCommand(path, method) && path.startsWith('/v1/agents/{agent_id}')) {
      shared(operation, '404', 'AgentNotFound');
      if (hasJsonBody(operation)) shared(operation, '409', 'StaleRevision');
      shared(operation, '422', 'IdempotencyKeyReused');
    }
    if (operation.requestBody) {
      shared(operation, '413', 'PayloadTooLarge');
      shared(operation, '415', 'UnsupportedMediaType');
    }
    shared(operation, '429', 'RateLimited');
    shared(
      operation,
      '503',
      method === 'get' ? 'ReadUnavailable' : isCommand(path, method) ? 'CommandUnavailable' : 'Unavailable',
    );
  });
  return document;
}

/** The public routes (health, the callback capability) say so: `security: []`; the others need the bearer token. */
export function describeSecurity(document: OpenAPIObject): OpenAPIObject {
  eachOperation(document, (operation) => {
    operation.security ??= [];
  });
  const schemes = document.components?.securitySchemes ?? {};
  schemes.bearer = {
    type: 'http',
    scheme: 'bearer',
    description:
      'An opaque API token (RUNTIME_API_TOKENS or RUNTIME_API_TOKENS_FILE), not a JWT: it names agents and a role.',
  };
  document.components = { ...document.components, securitySchemes: schemes };
  return document;
}

/** Path ids match the id pattern (else 400, IdParamPipe); a dead letter's `position` is a decimal position. */
export function describePathParameters(document: OpenAPIObject): OpenAPIObject {
  eachOperation(document, (operation) => {
    for (const parameter of operation.parameters ?? []) {
      if (!('in' in parameter) || parameter.in !== 'path') continue;
      if (parameter.name.endsWith('_id')) parameter.schema = { type: 'string', pattern: ID_PATTERN.source };
      if (parameter.name === 'position') parameter.schema = { type: 'string', pattern: DECIMAL_PATTERN };
    }
  });
  return document;
}

/** The reply schemas of libs/contracts as components. */
export function registerReplySchemas(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...REPLY_SCHEMAS } };
  return document;
}

/** The same document, every object's keys sorted (arrays keep their order): a stable export. */
export function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)])) as T;
}

/** Every transform, in order: the document /docs-json serves and `npm run openapi:export` writes. */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  const steps = [
    registerReplySchemas,
    describePathParameters,
    describeSecurity,
    describeCommandHeaders,
    describeReadYourWrites,
    describeErrors,
  ];
  return sortedKeys(steps.reduce((doc, step) => step(doc), document));
}

/** The text of docs/openapi.json: sorted keys, two-space indent, a final newline. */
export function openApiJson(document: OpenAPIObject): string {
  return `${JSON.stringify(sortedKeys(document), null, 2)}\n`;
}
