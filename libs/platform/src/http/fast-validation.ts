import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import type { getMetadataStorage, ValidationArguments, ValidatorConstraintInterface } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { FORBIDDEN_JSON_KEYS, MAX_JSON_DEPTH } from './json-guard';
import { cacheValidationMetadata } from './validation-metadata-cache';

/**
 * A faster path to class-validator's answer for an object that has no error (docs/decisions/0054).
 *
 * class-validator's executor builds a ValidationError for every property it looks at, copies and
 * filters the rules of each property on every call, and returns through promises; the
 * ValidationPipe walks the value three more times first (gaps of arrays, prototype keys, binary
 * values). For a valid body that was about a tenth of an HTTP command's CPU. `surelyValid` runs
 * the same rules (the same metadata, the same constraint instances and arguments, the same
 * conditions) in the executor's order, for the options of this runtime's pipe (whitelist with
 * unknown properties refused, unknown values refused, no groups, nothing skipped), and answers
 * true only when the executor would report no error. Anything it does not model (a rule of
 * another kind, an asynchronous constraint, a Set or Map, a promise) answers false, as does any
 * broken rule: the caller then runs class-validator, which words the refusal. So a refusal and
 * its details come from class-validator as before, and the fast path only ever accepts.
 */

interface Check {
  instance: ValidatorConstraintInterface;
  metadata: ValidationMetadata;
  /** The arguments class-validator passes to the constraint, filled per call (validation is synchronous). */
  args: ValidationArguments;
}

interface PropertyRules {
  name: string;
  conditions: Array<(object: object, value: unknown) => boolean>;
  /** `isDefined` first, then the custom validations, as the executor runs them. */
  checks: Check[];
  nested: boolean;
}

interface ClassRules {
  allowed: ReadonlySet<string>;
  properties: PropertyRules[];
}

type Storage = ReturnType<typeof getMetadataStorage>;

/** What a check's arguments point at between calls (nothing of a request is kept). */
const NO_OBJECT: object = Object.freeze({});

/** Compiled per metadata array: cacheValidationMetadata keeps one per class until a rule is registered. */
const compiled = new WeakMap<ValidationMetadata[], ClassRules | null>();

function compile(storage: Storage, target: { name?: string }, metadatas: ValidationMetadata[]): ClassRules | null {
  // No rule at all: forbidUnknownValues refuses the object.
  if (metadatas.length === 0) return null;
  const grouped = storage.groupByPropertyName(metadatas);
  const properties: PropertyRules[] = [];
  for (const [name, list] of Object.entries(grouped)) {
    const rules: PropertyRules = { name, conditions: [], checks: [], nested: false };
    const defined: Check[] = [];
    for (const metadata of list) {
      switch (metadata.type) {
        case 'conditionalValidation':
          rules.conditions.push(metadata.constraints[0] as PropertyRules['conditions'][number]);
          break;
        case 'isDefined':
        case 'customValidation': {
          for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
            if (constraint.async) return null;
            const args: ValidationArguments = {
              targetName: target.name ?? '',
              property: metadata.propertyName,
              object: NO_OBJECT,
              value: undefined,
              constraints: metadata.constraints,
            };
            (metadata.type === 'isDefined' ? defined : rules.checks).push({
              instance: constraint.instance,
              metadata,
              args,
            });
          }
          break;
        }
        case 'nestedValidation':
          rules.nested = true;
          break;
        case 'whitelistValidation':
          break;
        default:
          // promiseValidation, or a kind this path does not know: class-validator decides.
          return null;
      }
    }
    rules.checks.unshift(...defined);
    properties.push(rules);
  }
  return { allowed: new Set(Object.keys(grouped)), properties };
}

function rulesOf(storage: Storage, target: unknown): ClassRules | null {
  if (typeof target !== 'function') return null;
  const metadatas = storage.getTargetValidationMetadatas(
    target,
    undefined as unknown as string,
    false,
    false,
    undefined,
  );
  let rules = compiled.get(metadatas);
  if (rules === undefined) compiled.set(metadatas, (rules = compile(storage, target, metadatas)));
  return rules;
}

function passes(check: Check, object: object, value: unknown): boolean {
  check.args.object = object;
  check.args.value = value;
  const result = check.instance.validate(value, check.args);
  check.args.object = NO_OBJECT;
  check.args.value = undefined;
  return Boolean(result) && !isThenable(result);
}

function isThenable(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function checksPass(checks: Check[], object: object, value: unknown): boolean {
  for (const check of checks) {
    if (!check.metadata.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      if (!passes(check, object, value)) return false;
      continue;
    }
    if (!Array.isArray(value)) return false;
    for (const item of value) if (!passes(check, object, item)) return false;
  }
  return true;
}

/** What the executor's nested validation finds in a value of a nested property (it skips undefined). */
function nestedValid(storage: Storage, value: unknown, depth: number): boolean {
  if (value === undefined) return true;
  if (depth > 64) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!nestedValid(storage, value[i], depth + 1)) return false;
    return true;
  }
  if (value instanceof Set || value instanceof Map || value instanceof Promise) return false;
  return value instanceof Object && objectValid(storage, value, depth + 1);
}

function objectValid(storage: Storage, object: object, depth: number): boolean {
  const rules = rulesOf(storage, object.constructor);
  if (!rules) return false;
  for (const key of Object.keys(object)) if (!rules.allowed.has(key)) return false;
  for (const property of rules.properties) {
    const value = (object as Record<string, unknown>)[property.name];
    if (value instanceof Promise) return false;
    let applies = true;
    // Every condition is asked, as the executor does.
    for (const condition of property.conditions) applies = condition(object, value) && applies;
    if (!applies) continue;
    if (!checksPass(property.checks, object, value)) return false;
    if (property.nested && !nestedValid(storage, value, depth)) return false;
  }
  return true;
}

/**
 * True only when class-validator, with the runtime's options (whitelist, forbidNonWhitelisted,
 * forbidUnknownValues; no groups, no skipping), reports no error for this object.
 */
export function surelyValid(object: object, storage: Storage = cacheValidationMetadata()): boolean {
  return objectValid(storage, object, 0);
}

/**
 * A tree of what JSON.parse makes (plain objects, dense arrays, strings, numbers, booleans, null)
 * within the JSON guard's depth and without its forbidden keys (the ones the ValidationPipe
 * deletes): a value on which the pipe's own walks (array gaps, prototype keys, binary values)
 * change nothing.
 */
export function isPlainJson(value: unknown, depth = 0): boolean {
  if (value === null) return true;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (type !== 'object' || depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (FORBIDDEN_JSON_KEYS.has(key) || !isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/**
 * The ValidationPipe with the fast path for a JSON body that passes: the same DTO instance from
 * class-transformer, checked by `surelyValid`; any other value, or a body with an error, goes
 * through the ValidationPipe as before (which then words the refusal).
 */
export class FastValidationPipe extends ValidationPipe {
  private readonly storage = cacheValidationMetadata();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    if (
      metadata.type === 'body' &&
      metatype &&
      this.isTransformEnabled &&
      !this.expectedType &&
      this.toValidate(metadata) &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      isPlainJson(value)
    ) {
      const entity: unknown = plainToInstance(metatype, value, this.transformOptions);
      if (entity instanceof Object && entity.constructor === metatype && surelyValid(entity, this.storage))
        return entity;
    }
    return super.transform(value, metadata);
  }
}
