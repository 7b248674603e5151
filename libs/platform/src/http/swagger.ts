import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

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
  const document = SwaggerModule.createDocument(app, config);
  const ui = staticAssetsLoadable();
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', ui });
  return { ui };
}
