import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, IsString, ValidateNested } from 'class-validator';
import { ApiError } from '@app/core';
import { validateGrpcRequest } from '../grpc/grpc-validation';
import { createValidationPipe } from './validation';

class TodoDto {
  @IsString() text!: string;
  @IsIn(['pending', 'done']) state!: string;
}

class CreateDto {
  @IsString() objective!: string;
  @ValidateNested({ each: true }) @Type(() => TodoDto) todo_list!: TodoDto[];
}

const details = async (run: () => Promise<unknown>): Promise<Record<string, unknown>> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, ...error.details };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('the global ValidationPipe', () => {
  const pipe = createValidationPipe();
  const transform = (value: unknown) => pipe.transform(value, { type: 'body', metatype: CreateDto });

  it('turns a valid body into a DTO instance', async () => {
    const dto = await transform({ objective: 'x', todo_list: [{ text: 't', state: 'done' }] });
    expect(dto).toBeInstanceOf(CreateDto);
  });

  it('lists each offending field path and constraint, unknown fields included', async () => {
    const result = await details(() =>
      transform({ objective: 1, extra: true, todo_list: [{ text: 't', state: 'later', more: 1 }] }),
    );
    expect(result.code).toBe('validation_failed');
    expect(result.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'objective', constraint: 'isString' }),
        expect.objectContaining({ field: 'extra', constraint: 'whitelistValidation' }),
        expect.objectContaining({ field: 'todo_list.0.state', constraint: 'isIn' }),
        expect.objectContaining({ field: 'todo_list.0.more', constraint: 'whitelistValidation' }),
      ]),
    );
  });
});

describe('validateGrpcRequest', () => {
  it('applies the same rules to a gRPC request', async () => {
    const result = await details(() => validateGrpcRequest(CreateDto, { objective: 'x', todo_list: [], sneaky: 1 }));
    expect(result.errors).toEqual([expect.objectContaining({ field: 'sneaky', constraint: 'whitelistValidation' })]);
  });
});
