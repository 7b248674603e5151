import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { ReplySchemaName } from './all.schemas';
import { ref } from './schema';

const json = (schema: ReplySchemaName) => ({ 'application/json': { schema: ref(schema) } });

/** The success reply of a route: its status and the component that describes its JSON body. */
export function ApiReply(status: 200 | 201 | 202, schema: ReplySchemaName, description?: string): MethodDecorator {
  return ApiResponse({ status, description: description ?? schema, content: json(schema) });
}

/** The refusals particular to a route (status -> when); the document transform adds those every route shares. */
export function ApiErrors(errors: Partial<Record<400 | 403 | 404 | 409 | 415 | 422 | 503, string>>): MethodDecorator {
  return applyDecorators(
    ...Object.entries(errors).map(([status, description]) =>
      ApiResponse({ status: Number(status), description, content: json('ErrorEnvelope') }),
    ),
  );
}

/**
 * A reply that is not JSON: the plan body (text/markdown), a server-sent event stream
 * (text/event-stream) or the Prometheus exposition (text/plain).
 */
export function ApiTextReply(
  mediaType: 'text/markdown' | 'text/event-stream' | 'text/plain',
  description: string,
): MethodDecorator {
  return ApiResponse({ status: 200, description, content: { [mediaType]: { schema: { type: 'string' } } } });
}
