import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { completeDocument } from './openapi-document';

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

/** The OpenAPI document of the application's routes (the one /docs-json serves and docs/openapi.json holds). */
export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Agent runtime kernel')
    .setDescription(
      'Event-sourced runtime kernel for long-lived AI agents. The wire contract is docs/api.md; every non-2xx ' +
        'reply is the ErrorEnvelope {"error": {"code", "message", "details"}}.',
    )
    .setVersion(version)
    .addServer('/', 'this runtime (the document is served by the runtime it describes)')
    .addBearerAuth()
    .build();
  return completeDocument(SwaggerModule.createDocument(app, config));
}

/** OpenAPI at /docs (UI) and /docs-json; both public (registered outside the guarded router). */
export function setupOpenApi(app: INestApplication, version: string): { ui: boolean; document: OpenAPIObject } {
  const document = buildOpenApiDocument(app, version);
  const ui = staticAssetsLoadable();
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', ui });
  return { ui, document };
}
