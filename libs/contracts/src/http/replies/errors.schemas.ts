import { anyObject, object, type SchemaObject, str } from './schema';

/** The envelope of every non-2xx reply (libs/platform/src/errors, docs/api.md "Errors"). */
export const ERROR_SCHEMAS = {
  ErrorEnvelope: object(
    {
      error: object({
        code: str(
          'a stable code of docs/api.md "Errors" (validation_failed, unauthorized, forbidden, not_found, conflict, ' +
            'agent_stopped, invariant_violated, rate_limited, unavailable, contention, ...); new codes may be added: ' +
            'handle an unknown one by its HTTP status',
        ),
        message: str('for people; never parse it'),
        details: anyObject('facts about the refusal (e.g. rule, field, current_revision, retry hints); may be empty'),
      }),
    },
    { description: 'Every non-2xx reply: {"error": {"code", "message", "details"}}.' },
  ),
} satisfies Record<string, SchemaObject>;
