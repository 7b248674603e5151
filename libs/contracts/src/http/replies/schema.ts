import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';

// Small builders for the reply schemas (OpenAPI 3.0 schema objects): one line per field, and a
// compile-time check that a schema names exactly the fields of the domain type it describes.

export type { ReferenceObject, SchemaObject };
export type Schema = SchemaObject | ReferenceObject;

/** Agent stream revisions and store positions travel as decimal strings (they may pass 2^53). */
export const DECIMAL_PATTERN = '^(0|[1-9][0-9]{0,19})$';
/** A projection checkpoint: a position, or `-1` before the first event. */
export const CHECKPOINT_PATTERN = '^(-1|0|[1-9][0-9]{0,19})$';

const described = (schema: SchemaObject, description?: string): SchemaObject =>
  description === undefined ? schema : { ...schema, description };

export const str = (description?: string): SchemaObject => described({ type: 'string' }, description);
export const int = (description?: string, bounds: { minimum?: number; maximum?: number } = {}): SchemaObject =>
  described({ type: 'integer', ...bounds }, description);
export const num = (description?: string): SchemaObject => described({ type: 'number' }, description);
export const bool = (description?: string): SchemaObject => described({ type: 'boolean' }, description);
export const dateTime = (description?: string): SchemaObject =>
  described({ type: 'string', format: 'date-time' }, description);
export const decimal = (description?: string): SchemaObject =>
  described({ type: 'string', pattern: DECIMAL_PATTERN }, description);
export const checkpoint = (description?: string): SchemaObject =>
  described({ type: 'string', pattern: CHECKPOINT_PATTERN }, description);
export const literal = (value: string, description?: string): SchemaObject =>
  described({ type: 'string', enum: [value] }, description);
export const oneOfStrings = (values: readonly string[], description?: string): SchemaObject =>
  described({ type: 'string', enum: [...values] }, description);
export const arrayOf = (items: Schema, description?: string): SchemaObject =>
  described({ type: 'array', items }, description);
export const stringArray = (description?: string): SchemaObject => arrayOf(str(), description);
/** Any JSON object (event data, metadata extras). */
export const anyObject = (description?: string): SchemaObject =>
  described({ type: 'object', additionalProperties: true }, description);
/** A message body, trigger payload or wake hint body: a string or a JSON object. */
export const messageBody = (description?: string): SchemaObject =>
  described({ oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] }, description);

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/**
 * `null` allowed. A reference (always to an object schema here) goes through `allOf`, beside the
 * `type` that OpenAPI 3.0.3 asks `nullable` to sit with (a sibling of `$ref` itself is ignored).
 */
export function nullable(schema: Schema, description?: string): SchemaObject {
  if ('$ref' in schema) return described({ type: 'object', nullable: true, allOf: [schema] }, description);
  return described({ ...schema, nullable: true }, description ?? schema.description);
}

/** An object whose fields are all required unless listed in `optional`. */
export function object(
  properties: Record<string, Schema>,
  options: { optional?: readonly string[]; description?: string } = {},
): SchemaObject {
  const optional = new Set(options.optional ?? []);
  const required = Object.keys(properties).filter((key) => !optional.has(key));
  return described({ type: 'object', ...(required.length > 0 && { required }), properties }, options.description);
}

/**
 * The schema of a domain type `T`: every field of `T` must be described, and nothing else
 * (the compiler refuses a missing or an extra field). Optional fields are named in `optional`.
 */
export const shapeOf =
  <T>() =>
  (
    properties: { [K in keyof T]-?: Schema },
    options: { optional?: readonly (keyof T & string)[]; description?: string } = {},
  ): SchemaObject =>
    object(properties as Record<string, Schema>, options);

/**
 * Every literal of a string union, checked by the compiler: a literal added to the domain's
 * union without being listed here fails the build (`missing` names it).
 */
export const literalsOf =
  <T extends string>() =>
  <const V extends readonly T[]>(
    values: V & ([Exclude<T, V[number]>] extends [never] ? unknown : { missing: Exclude<T, V[number]> }),
  ): readonly string[] =>
    values;

/** `{items, total}`: `total` counts every match before `limit`. */
export const listOf = (item: Schema, description?: string): SchemaObject =>
  object({ items: arrayOf(item), total: int('every match, before `limit`', { minimum: 0 }) }, { description });

/** `schema` with more fields, all required. */
export function extend(schema: SchemaObject, properties: Record<string, Schema>, description?: string): SchemaObject {
  return {
    ...schema,
    required: [...(schema.required ?? []), ...Object.keys(properties)],
    properties: { ...schema.properties, ...properties },
    ...(description !== undefined && { description }),
  };
}
