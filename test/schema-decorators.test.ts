import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Equals,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsNegative,
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
  NotEquals,
} from 'class-validator';
import { cleanSchema, generated, objectSchema, valueSchema } from './support/schema-helpers.js';

test('type decorators map to JSON types', () => {
  class S {
    @IsString() value!: string;
  }
  class N {
    @IsNumber() value!: number;
  }
  class I {
    @IsInt() value!: number;
  }
  class B {
    @IsBoolean() value!: boolean;
  }
  class O {
    @IsObject() value!: Record<string, unknown>;
  }
  assert.deepEqual(cleanSchema(S), objectSchema({ value: { type: 'string' } }));
  assert.deepEqual(cleanSchema(N), objectSchema({ value: { type: 'number' } }));
  assert.deepEqual(cleanSchema(I), objectSchema({ value: { type: 'integer' } }));
  assert.deepEqual(cleanSchema(B), objectSchema({ value: { type: 'boolean' } }));
  assert.deepEqual(cleanSchema(O), objectSchema({ value: { type: 'object' } }));
});

test('@IsNumber() with @IsInt() is integer, and allowNaN/allowInfinity change nothing', () => {
  class Both {
    @IsNumber() @IsInt() value!: number;
  }
  class Options {
    @IsNumber({ allowNaN: true, allowInfinity: true }) value!: number;
  }
  assert.deepEqual(valueSchema(Both), { type: 'integer' });
  assert.deepEqual(valueSchema(Options), { type: 'number' });
});

test('@IsNumber({ maxDecimalPlaces }) keeps the type and leaves the places to class-validator', () => {
  class Money {
    @IsNumber({ maxDecimalPlaces: 2 }) value!: number;
  }
  const result = generated(Money);
  assert.deepEqual(result.schema, objectSchema({ value: { type: 'number' } }));
  assert.deepEqual(result.residual, [{ className: 'Money', property: 'value', constraint: 'isNumber' }]);
  assert.deepEqual(result.issues, []);
});

test('number bounds: @Min, @Max, @IsPositive, @IsNegative', () => {
  class Range {
    @IsInt() @Min(1) @Max(10) value!: number;
  }
  class Positive {
    @IsPositive() value!: number;
  }
  class Negative {
    @IsNegative() value!: number;
  }
  class Alone {
    @Min(0.5) value!: number;
  }
  class Tightest {
    @Min(1) @Min(3) @Max(9) @Max(7) value!: number;
  }
  assert.deepEqual(valueSchema(Range), { type: 'integer', minimum: 1, maximum: 10 });
  assert.deepEqual(valueSchema(Positive), { type: 'number', exclusiveMinimum: 0 });
  assert.deepEqual(valueSchema(Negative), { type: 'number', exclusiveMaximum: 0 });
  assert.deepEqual(valueSchema(Alone), { type: 'number', minimum: 0.5 });
  assert.deepEqual(valueSchema(Tightest), { type: 'number', minimum: 3, maximum: 7 });
});

test('string lengths: @Length, @MinLength, @MaxLength, @IsNotEmpty', () => {
  class Both {
    @Length(2, 5) value!: string;
  }
  class MinOnly {
    @Length(2) value!: string;
  }
  class Min {
    @MinLength(3) value!: string;
  }
  class Max {
    @IsString() @MaxLength(4096) value!: string;
  }
  class NotEmpty {
    @IsString() @IsNotEmpty() value!: string;
  }
  class NotEmptyMin {
    @IsNotEmpty() @MinLength(4) value!: string;
  }
  assert.deepEqual(valueSchema(Both), { type: 'string', minLength: 2, maxLength: 5 });
  assert.deepEqual(valueSchema(MinOnly), { type: 'string', minLength: 2 });
  assert.deepEqual(valueSchema(Min), { type: 'string', minLength: 3 });
  assert.deepEqual(valueSchema(Max), { type: 'string', maxLength: 4096 });
  assert.deepEqual(valueSchema(NotEmpty), { type: 'string', minLength: 1 });
  assert.deepEqual(valueSchema(NotEmptyMin), { type: 'string', minLength: 4 });
});

test('@IsNotEmpty() on a non-string forbids only the empty string', () => {
  class Count {
    @IsNotEmpty() value!: number;
  }
  assert.deepEqual(valueSchema(Count), { type: 'number', not: { const: '' } });
});

test('@Matches() becomes pattern, from a RegExp or a string', () => {
  class FromRegExp {
    @Matches(/^[a-z]+$/) value!: string;
  }
  class FromString {
    @Matches('^\\d{3}$') value!: string;
  }
  class Two {
    @Matches(/^a/) @Matches(/b$/) value!: string;
  }
  assert.deepEqual(valueSchema(FromRegExp), { type: 'string', pattern: '^[a-z]+$' });
  assert.deepEqual(valueSchema(FromString), { type: 'string', pattern: '^\\d{3}$' });
  // Decorators run bottom-up, so the lower @Matches comes first.
  assert.deepEqual(valueSchema(Two), { type: 'string', pattern: 'b$', allOf: [{ pattern: '^a' }] });
});

test('date formats: @IsDateString and @IsISO8601 are format date-time', () => {
  class DateString {
    @IsDateString() value!: string;
  }
  class Iso {
    @IsISO8601() value!: string;
  }
  assert.deepEqual(valueSchema(DateString), { type: 'string', format: 'date-time' });
  assert.deepEqual(valueSchema(Iso), { type: 'string', format: 'date-time' });
});

test('@IsEmail, @IsUrl and @IsUUID have a format, and class-validator checks them too', () => {
  class Args {
    @IsEmail() email!: string;
    @IsUrl() url!: string;
    @IsUUID() id!: string;
    @IsUUID('4') v4!: string;
  }
  const result = generated(Args);
  assert.deepEqual(
    result.schema,
    objectSchema({
      email: { type: 'string', format: 'email' },
      url: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
      v4: { type: 'string', format: 'uuid' },
    }),
  );
  assert.deepEqual(result.residual, [
    { className: 'Args', property: 'email', constraint: 'isEmail' },
    { className: 'Args', property: 'url', constraint: 'isUrl' },
    { className: 'Args', property: 'id', constraint: 'isUuid' },
    { className: 'Args', property: 'v4', constraint: 'isUuid' },
  ]);
  assert.deepEqual(result.issues, []);
});

test('@IsEmail and @IsUrl with options have no format (the options may accept more)', () => {
  class Args {
    @IsEmail({ allow_display_name: true }) email!: string;
    @IsUrl({ require_tld: false }) url!: string;
  }
  const result = generated(Args);
  assert.deepEqual(result.schema, objectSchema({ email: { type: 'string' }, url: { type: 'string' } }));
  assert.deepEqual(result.residual, [
    { className: 'Args', property: 'email', constraint: 'isEmail' },
    { className: 'Args', property: 'url', constraint: 'isUrl' },
  ]);
});

test('array decorators: @IsArray, @ArrayMinSize, @ArrayMaxSize, @ArrayNotEmpty', () => {
  class Sized {
    @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) value!: string[];
  }
  class NotEmpty {
    @ArrayNotEmpty() @IsInt({ each: true }) value!: number[];
  }
  assert.deepEqual(valueSchema(Sized), { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 });
  assert.deepEqual(valueSchema(NotEmpty), { type: 'array', items: { type: 'integer' }, minItems: 1 });
});

test('@ArrayUnique() is uniqueItems, and class-validator also checks it (identifier functions are invisible)', () => {
  class Tags {
    @ArrayUnique() @IsString({ each: true }) value!: string[];
  }
  const result = generated(Tags);
  assert.deepEqual(
    result.schema,
    objectSchema({ value: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
  );
  assert.deepEqual(result.residual, [{ className: 'Tags', property: 'value', constraint: 'arrayUnique' }]);
});

test('@Equals() is const, @NotEquals() and @IsNotIn() are not', () => {
  class Const {
    @Equals('v1') value!: string;
  }
  class NumberConst {
    @Equals(2) value!: number;
  }
  class NotOne {
    @IsString() @NotEquals('root') value!: string;
  }
  class NotIn {
    @IsString() @IsNotIn(['a', 'b']) value!: string;
  }
  assert.deepEqual(valueSchema(Const), { type: 'string', const: 'v1' });
  assert.deepEqual(valueSchema(NumberConst), { type: 'integer', const: 2 });
  assert.deepEqual(valueSchema(NotOne), { type: 'string', not: { const: 'root' } });
  assert.deepEqual(valueSchema(NotIn), { type: 'string', not: { enum: ['a', 'b'] } });
});

test('@IsIn() lists its values with their types', () => {
  class Strings {
    @IsIn(['asc', 'desc']) value!: string;
  }
  class Numbers {
    @IsIn([1, 2.5]) value!: number;
  }
  class Mixed {
    @IsIn(['auto', 0, true]) value!: unknown;
  }
  assert.deepEqual(valueSchema(Strings), { type: 'string', enum: ['asc', 'desc'] });
  assert.deepEqual(valueSchema(Numbers), { type: 'number', enum: [1, 2.5] });
  assert.deepEqual(valueSchema(Mixed), { type: ['string', 'integer', 'boolean'], enum: ['auto', 0, true] });
});

test('@IsDefined() adds nothing beyond required', () => {
  class Args {
    @IsDefined() @IsString() value!: string;
  }
  assert.deepEqual(cleanSchema(Args), objectSchema({ value: { type: 'string' } }));
});

test('@IsOptional() leaves the property out of required and admits null', () => {
  class Args {
    @IsString() name!: string;
    @IsOptional() @IsInt() @Min(1) limit?: number;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({ name: { type: 'string' }, limit: { type: ['integer', 'null'], minimum: 1 } }, ['name']),
  );
});

test('a class with only optional properties has no required list', () => {
  class Args {
    @IsOptional() @IsString() name?: string;
  }
  assert.deepEqual(cleanSchema(Args), {
    type: 'object',
    properties: { name: { type: ['string', 'null'] } },
    additionalProperties: false,
  });
});

test('a class with no properties is the empty object', () => {
  class Nothing {}
  assert.deepEqual(cleanSchema(Nothing), { type: 'object', properties: {}, additionalProperties: false });
});
