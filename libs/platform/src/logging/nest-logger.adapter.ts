import type { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import type { Logger } from 'pino';

export const NEST_LOGGER = Symbol('NEST_LOGGER');

type PinoMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Nest's logger interface written onto the one pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...optional: unknown[]): void {
    this.write('info', message, optional);
  }
  error(message: unknown, ...optional: unknown[]): void {
    this.write('error', message, optional);
  }
  warn(message: unknown, ...optional: unknown[]): void {
    this.write('warn', message, optional);
  }
  debug(message: unknown, ...optional: unknown[]): void {
    this.write('debug', message, optional);
  }
  verbose(message: unknown, ...optional: unknown[]): void {
    this.write('trace', message, optional);
  }
  fatal(message: unknown, ...optional: unknown[]): void {
    this.write('fatal', message, optional);
  }
  setLogLevels(_levels: NestLogLevel[]): void {
    // NOTE: the level is pino's (LOG_LEVEL); Nest's own level list is ignored.
  }

  /** Nest passes `(message, stack?, context?)`: the last string is the context. */
  private write(level: PinoMethod, message: unknown, optional: unknown[]): void {
    const rest = [...optional];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const stack = rest.find((item): item is string => typeof item === 'string' && item.includes('\n'));
    const fields: Record<string, unknown> = { context };
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
