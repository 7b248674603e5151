import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_DESCRIPTION } from '@app/application';

/**
 * The UI's assets are served by @fastify/static, which Nest loads with a
 * `process.exit(1)` when it cannot. It loads under node, not inside jest's module
 * sandbox (an ESM dependency): probe first and keep /docs-json either way.
 */
function staticAssetsLoadable(): boolean {
  try {
    require('@fastify/static');
    return true;
  } catch {
    return false;
  }
}

/** OpenAPI at /docs (UI) and /docs-json; both public (registered outside the guarded router). */
export function setupOpenApi(app: INestApplication, version: string): { ui: boolean } {
  const config = new DocumentBuilder()
    .setTitle('Agent runtime kernel')
    .setDescription(
      'Event-sourced runtime kernel for long-lived AI agents. Errors: {"error": {"code", "message", "details"}}.',
    )
    .setVersion(version)
    .addBearerAuth()
    .build();
  const document = describeIdempotencyKey(SwaggerModule.createDocument(app, config));
  const ui = staticAssetsLoadable();
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', ui });
  return { ui };
}

const COMMAND_METHODS = ['post', 'put', 'patch', 'delete'] as const;

/** Every command route of an agent (and the callback route) takes `Idempotency-Key`: say what it does. */
function describeIdempotencyKey(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/agents') && !path.startsWith('/v1/callbacks')) continue;
    for (const method of COMMAND_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ??= []);
      if (parameters.some((p) => 'in' in p && p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'))
        continue;
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: IDEMPOTENCY_KEY_DESCRIPTION,
        schema: { type: 'string', minLength: 1, maxLength: 200 },
      });
    }
  }
  return document;
}
