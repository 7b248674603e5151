/** The structured logger every part of the runtime writes to: pino's (libs/platform creates it). */
export type { Logger } from 'pino';

/** The process's one pino logger (the root; children add bindings). */
export const LOGGER = Symbol('LOGGER');
