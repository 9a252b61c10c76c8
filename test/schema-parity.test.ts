import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  Equals,
  IsArray,
  IsBoolean,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  validateSync,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { generated } from './support/schema-helpers.js';
import { compileSchema } from '../src/compiler/validation/validator.js';

/**
 * The schema (plus class-validator for the residual constraints, as the pipeline runs it)
 * must accept exactly what class-validator accepts, for the inputs below. Differences that are
 * deliberate are asserted as such in their own tests.
 */
function verdicts(dto: Function, input: Record<string, unknown>): { ours: boolean; classValidator: boolean } {
  const { schema, residual } = generated(dto);
  const ajvValid = compileSchema(schema)(input) === true;
  const instance = plainToInstance(dto as new () => object, input);
  const classValidator = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true }).length === 0;
  return { ours: ajvValid && (residual.length === 0 || classValidator), classValidator };
}

function agree(dto: Function, cases: ReadonlyArray<readonly [Record<string, unknown>, boolean]>): void {
  for (const [input, expected] of cases) {
    const { ours, classValidator } = verdicts(dto, input);
    assert.equal(classValidator, expected, `class-validator on ${JSON.stringify(input)}`);
    assert.equal(ours, expected, `schema on ${JSON.stringify(input)}`);
  }
}

test('parity: types, optional and null', () => {
  class Args {
    @IsString() name!: string;
    @IsOptional() @IsInt() @Min(1) @Max(5) limit?: number;
    @IsOptional() @IsBoolean() flag?: boolean;
    @IsOptional() @IsNumber() ratio?: number;
  }
  agree(Args, [
    [{ name: 'a' }, true],
    [{ name: 'a', limit: null, flag: null, ratio: null }, true],
    [{ name: 'a', limit: 5, flag: false, ratio: 0.5 }, true],
    [{ name: 1 }, false],
    [{ name: null }, false],
    [{}, false],
    [{ name: 'a', limit: 0 }, false],
    [{ name: 'a', limit: 6 }, false],
    [{ name: 'a', limit: 1.5 }, false],
    [{ name: 'a', limit: '2' }, false],
    [{ name: 'a', flag: 'true' }, false],
    [{ name: 'a', extra: 1 }, false],
  ]);
});

test('parity: strings', () => {
  class Args {
    @Length(2, 3) code!: string;
    @IsNotEmpty() @IsString() label!: string;
    @Matches(/^[a-z]+$/) slug!: string;
    @IsOptional() @MaxLength(2) short?: string;
    @IsOptional() @IsNotIn(['root']) user?: string;
  }
  const ok = { code: 'ab', label: 'x', slug: 'abc' };
  agree(Args, [
    [ok, true],
    [{ ...ok, code: '😀😀' }, true],
    [{ ...ok, code: 'a' }, false],
    [{ ...ok, code: 'abcd' }, false],
    [{ ...ok, code: 12 }, false],
    [{ ...ok, label: '' }, false],
    [{ ...ok, slug: 'aB' }, false],
    [{ ...ok, short: 'abc' }, false],
    [{ ...ok, user: 'root' }, false],
    [{ ...ok, user: 'ada' }, true],
  ]);
});

test('parity: numbers', () => {
  class Args {
    @IsPositive() up!: number;
    @IsNegative() down!: number;
    @IsOptional() @Equals(3) three?: number;
  }
  agree(Args, [
    [{ up: 1, down: -1 }, true],
    [{ up: 0, down: -1 }, false],
    [{ up: 1, down: 0 }, false],
    [{ up: 1, down: -1, three: 3 }, true],
    [{ up: 1, down: -1, three: 4 }, false],
  ]);
});

test('parity: enums and lists', () => {
  enum Level {
    Low = 1,
    High = 2,
  }
  enum Color {
    Red = 'red',
    Blue = 'blue',
  }
  class Args {
    @IsEnum(Level) level!: Level;
    @IsEnum(Color) color!: Color;
    @IsIn(['asc', 'desc']) order!: string;
  }
  const ok = { level: 1, color: 'red', order: 'asc' };
  agree(Args, [
    [ok, true],
    [{ ...ok, level: 3 }, false],
    [{ ...ok, color: 'green' }, false],
    [{ ...ok, color: 'Red' }, false],
    [{ ...ok, order: 'up' }, false],
  ]);
});

test('known difference: class-validator accepts a numeric enum member name, the schema does not', () => {
  enum Level {
    Low = 1,
    High = 2,
  }
  class Args {
    @IsEnum(Level) level!: Level;
  }
  assert.deepEqual(verdicts(Args, { level: 'Low' }), { ours: false, classValidator: true });
});

test('parity: arrays and nested DTOs', () => {
  class Item {
    @IsString() sku!: string;
    @IsInt() @Min(1) quantity!: number;
  }
  class Args {
    @IsArray() @ArrayNotEmpty() @ArrayMaxSize(2) @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
    @IsOptional() @IsString({ each: true }) @MaxLength(3, { each: true }) tags?: string[];
  }
  const item = { sku: 'a', quantity: 1 };
  agree(Args, [
    [{ items: [item] }, true],
    [{ items: [item], tags: ['ab', 'abc'] }, true],
    [{ items: [] }, false],
    [{ items: [item, item, item] }, false],
    [{ items: [{ sku: 'a', quantity: 0 }] }, false],
    [{ items: [{ sku: 'a' }] }, false],
    [{ items: [{ ...item, extra: true }] }, false],
    [{ items: [item], tags: ['abcd'] }, false],
    [{ items: [item], tags: [1] }, false],
  ]);
});

test('parity: residual constraints are decided by class-validator', () => {
  @ValidatorConstraint({ name: 'isEven' })
  class IsEven implements ValidatorConstraintInterface {
    validate(value: unknown) {
      return typeof value === 'number' && value % 2 === 0;
    }
  }
  class Args {
    @IsInt() @Validate(IsEven) n!: number;
    @IsOptional() @IsEmail() email?: string;
    @IsOptional() @IsUrl() url?: string;
    @IsOptional() @Matches(/^abc$/i) code?: string;
  }
  agree(Args, [
    [{ n: 2 }, true],
    [{ n: 3 }, false],
    [{ n: 2, email: 'a@b.co' }, true],
    [{ n: 2, email: 'a@b.c' }, false],
    [{ n: 2, url: 'https://example.com' }, true],
    [{ n: 2, url: 'file:///etc/passwd' }, false],
    [{ n: 2, code: 'ABC' }, true],
    [{ n: 2, code: 'abd' }, false],
  ]);
});

test('known differences: ajv formats are stricter than class-validator in places', () => {
  class Url {
    @IsUrl() url!: string;
  }
  class Email {
    @IsEmail() email!: string;
  }
  // validator.js accepts a URL without a scheme; format "uri" needs one.
  assert.deepEqual(verdicts(Url, { url: 'example.com' }), { ours: false, classValidator: true });
  // validator.js accepts non-ASCII local parts; ajv-formats' email does not.
  assert.deepEqual(verdicts(Email, { email: 'ä@example.com' }), { ours: false, classValidator: true });
});
