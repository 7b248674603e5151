import 'reflect-metadata';
import { Type } from 'class-transformer';
import { getMetadataStorage, IsInt, IsOptional, IsString, ValidateNested, validate } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Step {
  @IsString()
  text!: string;
}

class Base {
  @IsString()
  id!: string;
}

class Update extends Base {
  @ValidateNested({ each: true })
  @Type(() => Step)
  steps!: Step[];

  @IsOptional()
  @IsInt()
  count?: number;
}

const options = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

const failures = async (value: object) =>
  (await validate(value, options)).map((e) => [e.property, Object.keys(e.constraints ?? {}), e.children?.length ?? 0]);

const make = (fields: Record<string, unknown>) => Object.assign(new Update(), fields);
const step = (text: unknown) => Object.assign(new Step(), { text });

describe('cacheValidationMetadata', () => {
  const storage = cacheValidationMetadata();

  it('is installed once on the global storage, whatever the number of calls', () => {
    const lookup = storage.getTargetValidationMetadatas;
    expect(cacheValidationMetadata()).toBe(storage);
    expect(getMetadataStorage().getTargetValidationMetadatas).toBe(lookup);
  });

  it('answers the same rules as class-validator, repeated lookups with the same arrays', () => {
    const first = storage.getTargetValidationMetadatas(Update, '', false, false);
    const second = storage.getTargetValidationMetadatas(Update, '', false, false);
    expect(second).toBe(first);
    expect(first.map((m) => `${m.propertyName}:${m.name ?? m.type}`).sort()).toEqual(
      expect.arrayContaining(['count:isInt', 'id:isString']),
    );
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(Object.keys(storage.groupByPropertyName(first)).sort()).toEqual(['count', 'id', 'steps']);
    // Other arguments are another answer.
    expect(storage.getTargetValidationMetadatas(Update, '', false, true, ['g'])).not.toBe(first);
  });

  it('validates as before: inherited and nested rules, unknown fields', async () => {
    expect(await failures(make({ id: 'a', steps: [step('x')] }))).toEqual([]);
    expect(await failures(make({ id: 1, steps: [step('x')] }))).toEqual([['id', ['isString'], 0]]);
    expect(await failures(make({ id: 'a', steps: [step(2)] }))).toEqual([['steps', [], 1]]);
    expect(await failures(make({ id: 'a', steps: [], count: 'x' }))).toEqual([['count', ['isInt'], 0]]);
    expect(await failures(make({ id: 'a', steps: [], other: 1 }))).toEqual([['other', ['whitelistValidation'], 0]]);
  });

  it('sees a rule registered after a lookup (a class defined later, a rule added to a parent)', async () => {
    expect(await failures(make({ id: 'a', steps: [], note: 1 }))).toEqual([['note', ['whitelistValidation'], 0]]);
    IsString()(Base.prototype, 'note');
    expect(await failures(make({ id: 'a', steps: [], note: 1 }))).toEqual([['note', ['isString'], 0]]);
    expect(await failures(make({ id: 'a', steps: [], note: 'n' }))).toEqual([]);
  });
});
