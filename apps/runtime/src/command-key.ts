import { ApiError } from '@app/core';

/**
 * The rule of `Idempotency-Key` and `X-Correlation-Id` (gRPC `command_id` and `correlation_id`):
 * 1 to 200 characters, each one of the 94 visible ASCII characters 0x21 `!` to 0x7E `~`.
 */
export const COMMAND_KEY = /^[\x21-\x7e]{1,200}$/;

/** What the refusal says, so the message and the rule cannot disagree. */
export const COMMAND_KEY_RULE =
  '1 to 200 visible ASCII characters, 0x21 (!) to 0x7E (~): letters, digits and punctuation; ' +
  'no space, tab or other control character, nothing outside ASCII';

/** The key as given, or 400 `validation_failed` naming it (`details` says where it came from). */
export function requireCommandKey(name: string, value: unknown, details: Record<string, unknown>): string {
  if (typeof value !== 'string' || !COMMAND_KEY.test(value)) {
    throw new ApiError('validation_failed', `${name} must be ${COMMAND_KEY_RULE}`, {
      ...details,
      rule: 'invalid_key',
      pattern: COMMAND_KEY.source,
      max_length: 200,
    });
  }
  return value;
}
