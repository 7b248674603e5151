import pino, { DestinationStream, Logger } from 'pino';
import type { RuntimeConfig } from '../config/runtime-config';

/** Header and field names that must never reach a log line, whatever logs them. */
export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'request.headers.authorization',
  'metadata.authorization',
  'token',
  'body',
  'req.body',
];

/** Structured JSON logs on stdout (or on `destination`, for tests). */
export function createLogger(
  config: Pick<RuntimeConfig, 'logLevel' | 'role'>,
  destination?: DestinationStream,
): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'agent-runtime', role: config.role, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}
