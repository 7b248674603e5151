import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors, validationFailed } from '../http/validation';

/**
 * The HTTP ValidationPipe's rules for a gRPC request: the same DTO classes, unknown
 * fields refused, 400-equivalent INVALID_ARGUMENT with the same details.
 */
export async function validateGrpcRequest<T extends object>(type: ClassConstructor<T>, request: unknown): Promise<T> {
  const instance = plainToInstance(type, (request ?? {}) as object);
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: false } });
  if (errors.length > 0) throw validationFailed(flattenValidationErrors(errors));
  return instance;
}
