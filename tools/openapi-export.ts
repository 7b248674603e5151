import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntimeApp, loadConfig, openApiJson } from '@app/platform';
import { ApiModule } from '../apps/runtime/src/api.module';

/*
 * `npm run openapi:export`: writes the OpenAPI document of the real application to
 * docs/openapi.json. The app is composed as `npm start` composes it (every module, the same
 * document /docs-json serves) on a throwaway embedded Postgres; it never listens.
 * test/e2e/platform/openapi-document.e2e.spec.ts fails when the file differs from /docs-json.
 */
const OPENAPI_FILE = join(__dirname, '..', 'docs', 'openapi.json');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-export-'));
  try {
    const config = loadConfig({
      RUNTIME_DATA_DIR: dataDir,
      RUNTIME_ROLE: 'all',
      RUNTIME_API_TOKENS: 'export=*',
      LOG_LEVEL: 'silent',
    });
    const runtime = await createRuntimeApp(config, { api: [ApiModule] });
    try {
      writeFileSync(OPENAPI_FILE, openApiJson(runtime.openApi));
    } finally {
      await runtime.close();
    }
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `openapi export failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
