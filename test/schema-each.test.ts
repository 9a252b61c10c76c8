import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { Type } from 'class-transformer';
import { cleanSchema, generated, objectSchema, valueSchema } from './support/schema-helpers.js';

test('each: true puts every constraint on the items', () => {
  class Args {
    @IsString({ each: true })
    @MinLength(2, { each: true })
    @MaxLength(8, { each: true })
    @Matches(/^[a-z]+$/, { each: true })
    @IsNotEmpty({ each: true })
    names!: string[];
    @IsInt({ each: true }) @Min(0, { each: true }) @Max(9, { each: true }) digits!: number[];
    @IsNumber({}, { each: true }) @IsPositive({ each: true }) weights!: number[];
    @IsBoolean({ each: true }) flags!: boolean[];
    @IsObject({ each: true }) bags!: object[];
    @IsDateString({}, { each: true }) dates!: string[];
    @Length(1, 3, { each: true }) codes!: string[];
    @Equals('x', { each: true }) xs!: string[];
    @IsIn(['a', 'b'], { each: true }) letters!: string[];
    @IsString({ each: true }) @IsNotIn(['root'], { each: true }) users!: string[];
    @IsArray({ each: true }) @Type(() => String) matrix!: string[][];
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({
      names: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 8 } },
      digits: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 9 } },
      weights: { type: 'array', items: { type: 'number', exclusiveMinimum: 0 } },
      flags: { type: 'array', items: { type: 'boolean' } },
      bags: { type: 'array', items: { type: 'object' } },
      dates: { type: 'array', items: { type: 'string', format: 'date-time' } },
      codes: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 3 } },
      xs: { type: 'array', items: { type: 'string', const: 'x' } },
      letters: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      users: { type: 'array', items: { type: 'string', not: { const: 'root' } } },
      matrix: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
    }),
  );
});

test('each: true with array-level constraints keeps both levels apart', () => {
  class Args {
    @IsArray() @ArrayMaxSize(5) @IsString({ each: true }) @MaxLength(10, { each: true }) value!: string[];
  }
  assert.deepEqual(valueSchema(Args), { type: 'array', items: { type: 'string', maxLength: 10 }, maxItems: 5 });
});

test('@IsEnum with each: true, optional', () => {
  enum Color {
    Red = 'red',
    Blue = 'blue',
  }
  class Args {
    @IsOptional() @IsEnum(Color, { each: true }) value?: Color[];
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({ value: { type: ['array', 'null'], items: { type: 'string', enum: ['red', 'blue'] } } }, []),
  );
});

test('@Type(() => Number) gives the item type of an array without each decorators', () => {
  class Args {
    @IsArray() @Type(() => Number) value!: number[];
  }
  assert.deepEqual(valueSchema(Args), { type: 'array', items: { type: 'number' } });
});

test('each: true on a residual constraint still types the items', () => {
  class Args {
    @IsString({ each: true }) @Matches(/^a/i, { each: true }) value!: string[];
  }
  const result = generated(Args);
  assert.deepEqual(result.schema, objectSchema({ value: { type: 'array', items: { type: 'string' } } }));
  assert.deepEqual(result.residual, [{ className: 'Args', property: 'value', constraint: 'matches' }]);
});

test('each: true on format decorators puts the format on the items', () => {
  class Args {
    @IsEmail({}, { each: true }) emails!: string[];
    @IsUrl({}, { each: true }) urls!: string[];
    @IsUUID(undefined, { each: true }) ids!: string[];
  }
  const result = generated(Args);
  assert.deepEqual(
    result.schema,
    objectSchema({
      emails: { type: 'array', items: { type: 'string', format: 'email' } },
      urls: { type: 'array', items: { type: 'string', format: 'uri' } },
      ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    }),
  );
  assert.deepEqual(
    result.residual.map((r) => r.constraint),
    ['isEmail', 'isUrl', 'isUuid'],
  );
});
