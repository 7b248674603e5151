import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = any;
const ROOT = 'openapi';

/**
 * OpenAPI 3.0 schema -> JSON Schema for ajv, made strict: `nullable` becomes `anyOf [.., null]`,
 * refs point into the document, and an object that lists its properties admits no others unless
 * it says so (proving the documented fields are all the fields, not just some of them).
 */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toJsonSchema(v)]))
        : toJsonSchema(value);
  }
  if (typeof out.$ref === 'string') out.$ref = `${ROOT}${out.$ref}`;
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  if (out.nullable === true) {
    delete out.nullable;
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export interface OpenApiValidator {
  /** The document's schema for this reply (a JSON one), or throws naming what is not documented. */
  check(method: string, template: string, status: number, contentType: string | null, body: unknown): void;
  /** `METHOD template status` of every reply checked so far. */
  readonly checked: Set<string>;
  /** The component names of every 2xx body checked so far. */
  readonly shapes: Set<string>;
  /** A value against one component schema (e.g. the data of a server-sent event). */
  checkComponent(name: string, value: unknown): void;
}

export function openApiValidator(document: Json): OpenApiValidator {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: ROOT, components: { schemas: toJsonSchema(document.components.schemas) } });
  const compiled = new Map<string, ValidateFunction>();
  const checked = new Set<string>();
  const shapes = new Set<string>();
  const resolve = (response: Json): Json =>
    typeof response?.$ref === 'string'
      ? document.components.responses[response.$ref.replace('#/components/responses/', '')]
      : response;

  const validated = (key: string, validate: ValidateFunction, body: unknown): void => {
    if (validate(body)) return;
    const errors = ajv.errorsText(validate.errors, { separator: '\n  ' });
    throw new Error(`${key}: the body does not match its schema:\n  ${errors}\n${JSON.stringify(body, null, 1)}`);
  };

  return {
    checked,
    shapes,
    checkComponent(name, value) {
      if (!document.components.schemas[name]) throw new Error(`no component ${name}`);
      shapes.add(name);
      validated(name, ajv.getSchema(`${ROOT}#/components/schemas/${name}`)!, value);
    },
    check(method, template, status, contentType, body) {
      const key = `${method.toUpperCase()} ${template} ${status}`;
      const operation = document.paths[template]?.[method.toLowerCase()];
      if (!operation) throw new Error(`${method} ${template} is not in the document`);
      const response = resolve(operation.responses[String(status)]);
      if (!response) throw new Error(`${key}: the status is not documented (body ${JSON.stringify(body)})`);
      const mediaType = (contentType ?? '').split(';')[0]!.trim();
      const content = response.content?.[mediaType];
      if (!content) throw new Error(`${key}: ${mediaType || 'no content type'} is not documented`);
      checked.add(key);
      if (mediaType !== 'application/json') return;
      const ref: string | undefined = content.schema?.$ref;
      if (ref && status < 300) shapes.add(ref.replace('#/components/schemas/', ''));
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile(toJsonSchema(content.schema));
        compiled.set(key, validate);
      }
      validated(key, validate, body);
    },
  };
}
