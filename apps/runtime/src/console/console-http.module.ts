import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuditModule } from '@app/application';
import { consoleQueriesProvider } from '@app/read-models';
import { CONSOLE_ASSETS, ConsoleAssetsController } from './console-assets.controller';
import { ConsoleAssets } from './console-assets';
import { CONSOLE_QUERY_HANDLERS } from './console-query.handlers';
import { ConsoleController } from './console.controller';

/** The operator console: its static page at /console and the cross-agent reads it needs under /v1. */
@Module({
  imports: [CqrsModule, AuditModule],
  controllers: [ConsoleController, ConsoleAssetsController],
  providers: [
    consoleQueriesProvider,
    { provide: CONSOLE_ASSETS, useFactory: () => new ConsoleAssets() },
    ...CONSOLE_QUERY_HANDLERS,
  ],
})
export class ConsoleHttpModule {}
