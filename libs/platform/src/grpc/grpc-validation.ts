import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { assertSafeJsonValue } from '../http/json-guard';
import { flattenValidationErrors, validationFailed } from '../http/validation';
import { surelyValid } from '../http/fast-validation';
import { cacheValidationMetadata } from '../http/validation-metadata-cache';

/**
 * The HTTP ValidationPipe's rules for a gRPC request: the same DTO classes, unknown
 * fields refused, 400-equivalent INVALID_ARGUMENT with the same details. First the JSON
 * body rules of the HTTP parser (depth <= 32, no `__proto__`/`constructor`/`prototype`
 * keys), which a message or payload parsed from a gRPC `json` field has not been through.
 */
export async function validateGrpcRequest<T extends object>(type: ClassConstructor<T>, request: unknown): Promise<T> {
  assertSafeJsonValue(request);
  const storage = cacheValidationMetadata();
  const instance = plainToInstance(type, (request ?? {}) as object);
  // A request without an error is answered by the fast path; class-validator words any refusal.
  if (instance instanceof Object && surelyValid(instance, storage)) return instance;
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw validationFailed(flattenValidationErrors(errors));
  return instance;
}
