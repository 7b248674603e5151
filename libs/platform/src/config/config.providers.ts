import type { Provider } from '@nestjs/common';
import type { RuntimeConfig } from './runtime-config';

export const RUNTIME_CONFIG = Symbol('RUNTIME_CONFIG');

/** The config is read once by the composition root (`loadConfig(process.env)`) and handed in. */
export function configProvider(config: RuntimeConfig): Provider {
  return { provide: RUNTIME_CONFIG, useFactory: (): RuntimeConfig => config };
}
