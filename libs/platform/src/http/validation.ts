import type { ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { ApiError } from '@app/core';
import { FastValidationPipe } from './fast-validation';

export interface FieldViolation {
  /** Dotted path into the body, array items by index: `todo_list.0.text`. */
  field: string;
  /** class-validator constraint name (`isString`, `whitelistValidation` for unknown fields, ...). */
  constraint: string;
  message: string;
}

/** Flatten class-validator's tree into one entry per failed constraint. */
export function flattenValidationErrors(errors: readonly ValidationError[], prefix = ''): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    for (const [constraint, message] of Object.entries(error.constraints ?? {}))
      out.push({ field, constraint, message });
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, field));
  }
  return out;
}

export function validationFailed(violations: FieldViolation[]): ApiError {
  const summary = violations
    .map((v) => v.message)
    .slice(0, 5)
    .join('; ');
  return new ApiError('validation_failed', summary || 'request validation failed', { errors: violations });
}

/**
 * The one global pipe: unknown fields are refused, bodies become DTO instances. A JSON body without
 * an error takes the fast path (fast-validation.ts); everything else, and every refusal, is Nest's.
 */
export function createValidationPipe(): ValidationPipe {
  return new FastValidationPipe(VALIDATION_PIPE_OPTIONS);
}

/** The pipe's options (the fast path models exactly these: fast-validation.ts). */
export const VALIDATION_PIPE_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => validationFailed(flattenValidationErrors(errors)),
};
