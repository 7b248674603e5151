import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { plainToInstance, Type } from 'class-transformer';
import { getMetadataStorage, IsDefined, IsIn, IsInt, IsString, ValidateIf, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import * as contracts from '@app/contracts';
import { ApiError } from '@app/core';
import { FastValidationPipe, isPlainJson, surelyValid } from './fast-validation';
import { createValidationPipe, VALIDATION_PIPE_OPTIONS } from './validation';
import { cacheValidationMetadata } from './validation-metadata-cache';

type Class = new () => object;

const storage = cacheValidationMetadata(getMetadataStorage());
const rulesOf = (type: Class) => storage.getTargetValidationMetadatas(type, '', false, false, undefined);

/** Every request DTO of the wire contract: the exported classes that have validation rules. */
const DTOS = Object.entries(contracts)
  .filter((entry): entry is [string, Class] => typeof entry[1] === 'function' && rulesOf(entry[1] as Class).length > 0)
  .sort(([a], [b]) => a.localeCompare(b));

/** The property names of every DTO, and the values their IsIn rules allow: what random bodies are made of. */
const KEYS = [...new Set(DTOS.flatMap(([, type]) => rulesOf(type).map((rule) => rule.propertyName)))].sort();
const ALLOWED = [
  ...new Set(
    DTOS.flatMap(([, type]) =>
      rulesOf(type).flatMap((rule) =>
        rule.constraints?.length === 1 && Array.isArray(rule.constraints[0]) ? (rule.constraints[0] as unknown[]) : [],
      ),
    ),
  ),
].filter((value) => typeof value === 'string' || typeof value === 'number');

const leaf = fc.oneof(
  fc.constantFrom(...ALLOWED),
  fc.constantFrom('w-1', 'a', 'agent-7', 'x y', '', '2026-01-02T03:04:05Z', '12', '-3', '0', 'null'),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -3, max: 200 }),
  fc.constantFrom(0, 1.5, -1, 2 ** 53, null, true, false),
);

/** The class a nested property's items become (its `@Type`, as class-transformer applies it), if any. */
function nestedType(type: Class, property: string): Class | undefined {
  const item = (plainToInstance(type, { [property]: [{}] }) as Record<string, unknown[]>)[property]?.[0];
  const made = (item as object | undefined)?.constructor;
  return made && made !== Object ? (made as Class) : undefined;
}

/**
 * Bodies of one DTO: each of its properties absent, or a value its rules may take (an allowed value
 * of an IsIn, nested bodies of a nested DTO) or any leaf; now and then one stranger property (a key of
 * another DTO, or one the pipe deletes). Most are valid or one rule short of it.
 */
function bodyOf(type: Class, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(storage.groupByPropertyName(rulesOf(type))).map(([name, rules]) => {
    const allowed = rules.flatMap((rule) =>
      rule.type === 'customValidation' && rule.constraints?.length === 1 && Array.isArray(rule.constraints[0])
        ? (rule.constraints[0] as unknown[])
        : [],
    );
    const nested = rules.some((rule) => rule.type === 'nestedValidation') ? nestedType(type, name) : undefined;
    const good: fc.Arbitrary<unknown> =
      nested && depth < 2
        ? fc.oneof(fc.array(bodyOf(nested, depth + 1), { maxLength: 3 }), bodyOf(nested, depth + 1))
        : allowed.length > 0
          ? fc.constantFrom(...allowed)
          : leaf;
    return [name, fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: leaf })] as const;
  });
  const stranger = fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'prototype', ...KEYS), leaf);
  // Each property present four times in five (fc.record's optional keys would be present half the time).
  const present = fields.map(([name, value]) =>
    fc.option(
      value.map((v) => [name, v] as const),
      { freq: 4 },
    ),
  );
  return fc.tuple(fc.tuple(...present), fc.option(stranger, { freq: 4 })).map(([entries, extra]) => ({
    ...Object.fromEntries(entries.filter((entry) => entry !== null)),
    ...(extra ? { [extra[0]]: extra[1] } : {}),
  }));
}

/** Any JSON object over the DTOs' keys, nested up to three levels: shapes no DTO expects. */
const anyBody = fc.letrec<{ node: unknown; object: Record<string, unknown> }>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), fc.array(tie('node'), { maxLength: 3 })),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.constantFrom('extra', '__proto__')), tie('node'), {
    maxKeys: 4,
  }),
})).object;

/** A pipe's answer: the value it returned, or the refusal it threw (code, message, details). */
async function outcome(pipe: ValidationPipe, value: unknown, metatype: Class): Promise<unknown> {
  try {
    return { returned: await pipe.transform(value, { type: 'body', metatype }) };
  } catch (error) {
    if (error instanceof ApiError)
      return { refused: { code: error.code, message: error.message, details: error.details } };
    throw error;
  }
}

describe('the fast path of the ValidationPipe', () => {
  const fast = createValidationPipe();
  const nest = new ValidationPipe(VALIDATION_PIPE_OPTIONS);

  it('finds the request DTOs of the wire contract', () => {
    expect(fast).toBeInstanceOf(FastValidationPipe);
    expect(DTOS.map(([name]) => name)).toEqual(expect.arrayContaining(['UpdateWorkItemDto', 'CreateWorkItemDto']));
    expect(DTOS.length).toBeGreaterThan(20);
  });

  it('answers every body of every DTO exactly as Nest ValidationPipe does', async () => {
    // Counts the bodies the fast path answered (class-validator not called), to show it was covered.
    const validate = jest.spyOn(fast as unknown as { validate: () => unknown }, 'validate');
    let accepted = 0;
    for (const [name, type] of DTOS) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 4, arbitrary: bodyOf(type) }, { weight: 1, arbitrary: anyBody }),
          async (value) => {
            // Each pipe gets its own copy, made as the body parser makes one (Nest's deletes prototype keys in place).
            const json = JSON.stringify(value);
            const calls = validate.mock.calls.length;
            const ours = await outcome(fast, JSON.parse(json), type);
            if (validate.mock.calls.length === calls) accepted++;
            const theirs = await outcome(nest, JSON.parse(json), type);
            expect({ name, ...(ours as object) }).toStrictEqual({ name, ...(theirs as object) });
          },
        ),
        { numRuns: 200 },
      );
    }
    // Most random bodies are refused; enough pass for the comparison to cover the fast path.
    expect(accepted).toBeGreaterThan(DTOS.length * 8);
  });

  it('answers a valid body without class-validator, with the DTO and its nested instances', async () => {
    const pipe = new FastValidationPipe(VALIDATION_PIPE_OPTIONS);
    const validate = jest.spyOn(pipe as unknown as { validate: () => unknown }, 'validate');
    const dto = await pipe.transform(
      { todo_list: [{ text: 'step 1', state: 'in_progress' }], blocked_by: null, expected_revision: '12' },
      { type: 'body', metatype: contracts.UpdateWorkItemDto },
    );
    expect(validate).not.toHaveBeenCalled();
    expect(dto).toBeInstanceOf(contracts.UpdateWorkItemDto);
    expect((dto as contracts.UpdateWorkItemDto).todo_list?.[0]).toBeInstanceOf(contracts.TodoItemDto);
  });

  it('leaves a body with an error to class-validator, which words the refusal', async () => {
    const pipe = new FastValidationPipe(VALIDATION_PIPE_OPTIONS);
    const validate = jest.spyOn(pipe as unknown as { validate: () => unknown }, 'validate');
    const refused = await outcome(pipe, { todo_list: [{ text: 'x', state: 'later' }] }, contracts.UpdateWorkItemDto);
    expect(validate).toHaveBeenCalledTimes(1);
    expect(refused).toEqual({
      refused: expect.objectContaining({
        code: 'validation_failed',
        details: { errors: [expect.objectContaining({ field: 'todo_list.0.state', constraint: 'isIn' })] },
      }),
    });
  });

  it('leaves queries, parameters and non-JSON values to Nest', async () => {
    const pipe = new FastValidationPipe(VALIDATION_PIPE_OPTIONS);
    const validate = jest.spyOn(pipe as unknown as { validate: () => unknown }, 'validate');
    await pipe.transform({ filter: 'all' }, { type: 'query', metatype: contracts.ListWorkItemsQueryDto });
    await pipe
      .transform(
        { todo_list: [{ text: 'a', state: 'pending' }], when: new Date(0) },
        {
          type: 'body',
          metatype: contracts.UpdateWorkItemDto,
        },
      )
      .catch(() => undefined);
    expect(validate).toHaveBeenCalledTimes(2);
  });
});

describe('surelyValid', () => {
  class Item {
    @IsString() text!: string;
  }
  class Holder {
    @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
    @ValidateIf((_o, value) => value !== undefined) @IsInt() count?: number;
    @IsDefined() @IsIn(['a', 'b']) kind!: string;
  }
  class Noted {
    @IsDefined() note?: unknown;
  }
  class Empty {}
  const holder = (fields: Partial<Holder>) => Object.assign(new Holder(), fields);
  const item = (text: unknown) => Object.assign(new Item(), { text });

  it('is true only when every rule holds, nested items included', () => {
    expect(surelyValid(holder({ items: [item('a')], kind: 'a' }))).toBe(true);
    expect(surelyValid(holder({ items: [item('a')], kind: 'a', count: 3 }))).toBe(true);
    expect(surelyValid(holder({ items: [item(1)], kind: 'a' }))).toBe(false);
    expect(surelyValid(holder({ items: [item('a')], kind: 'c' }))).toBe(false);
    expect(surelyValid(holder({ items: [item('a')], kind: 'a', count: 1.5 }))).toBe(false);
  });

  it('is false where class-validator would refuse the shape: unknown properties, plain items, null, no rules', () => {
    expect(surelyValid(Object.assign(holder({ items: [], kind: 'a' }), { extra: 1 }))).toBe(false);
    expect(surelyValid(holder({ items: [{ text: 'a' } as Item], kind: 'a' }))).toBe(false);
    expect(surelyValid(holder({ items: [null as unknown as Item], kind: 'a' }))).toBe(false);
    expect(surelyValid(holder({ items: null as unknown as Item[], kind: 'a' }))).toBe(false);
    expect(surelyValid(new Empty())).toBe(false);
    expect(surelyValid(Object.assign(new Noted(), { note: 0 }))).toBe(true);
    expect(surelyValid(new Noted())).toBe(false);
  });

  it('is false for what it does not model (a Set of items), leaving it to class-validator', () => {
    expect(surelyValid(holder({ items: new Set([item('a')]) as unknown as Item[], kind: 'a' }))).toBe(false);
  });
});

describe('isPlainJson', () => {
  it('accepts what JSON.parse makes and refuses anything the pipe would change or cannot take as is', () => {
    expect(isPlainJson(JSON.parse('{"a":[1,"x",null,true,{"b":{}}]}'))).toBe(true);
    expect(isPlainJson(JSON.parse('{"__proto__":{"x":1}}'))).toBe(false);
    expect(isPlainJson({ constructor: 'x' })).toBe(false);
    expect(isPlainJson({ a: [1, , 3] })).toBe(false);
    expect(isPlainJson({ a: Buffer.from('x') })).toBe(false);
    expect(isPlainJson({ a: undefined })).toBe(false);
    expect(isPlainJson(Object.create(null))).toBe(false);
  });
});
