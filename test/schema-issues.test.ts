import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import {
  Allow,
  IsArray,
  IsDate,
  IsEnum,
  IsIBAN,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Min,
  registerDecorator,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Description, Field, defineDescription } from '../src/decorators/index.js';
import { generateSchema } from '../src/compiler/schema/index.js';
import { generated, objectSchema } from './support/schema-helpers.js';

const FIX =
  'add a class-validator type decorator such as @IsString(), @IsInt(), @IsObject() or @ValidateNested() with @Type(() => Class)';
const OBJECT_FIX =
  'for a union write @UnionOf([A, B]) (or @UnionOf({ discriminator, cases }) for classes told apart by a property), for a map @MapOf(ValueType), for a nested class @ValidateNested() with @Type(() => Class), for any JSON value @Allow(); otherwise add a class-validator type decorator such as @IsString()';

test('design:type Object without a type decorator is unknown-property-type', () => {
  class Args {
    @IsOptional() payload?: string | number;
    @Allow() anything: unknown;
  }
  const result = generated(Args);
  assert.deepEqual(result.issues, [
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'payload',
      message: `Args.payload: the type of this property cannot be known (design:type is Object: a union, a map, an interface or any); ${OBJECT_FIX}`,
    },
  ]);
  // The property stays in the schema, unconstrained, so the schema still compiles; @Allow()
  // on an unknown type is an explicit "any JSON value".
  assert.deepEqual(result.schema, objectSchema({ payload: {}, anything: {} }, ['anything']));
});

test('no design:type at all, a type JSON cannot carry, and an swc-style enum object each say why', () => {
  class Args {
    @Description('When') at!: Map<string, string>;
  }
  defineDescription(Args, 'ghost', 'Never declared, so never given a design:type');
  class Swc {
    @Description('Level') level!: string;
  }
  Reflect.defineMetadata('design:type', { Low: 'low', High: 'high' }, Swc.prototype, 'level');
  assert.deepEqual(generated(Args).issues, [
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'at',
      message:
        'Args.at: a Map travels as a JSON object, but its value type is not recorded; add @MapOf(ValueType), for example @MapOf(String) or @MapOf(() => Item)',
    },
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'ghost',
      message: `Args.ghost: the type of this property cannot be known (no design:type was recorded: emitDecoratorMetadata is off, reflect-metadata was imported after this class, or the compiler (esbuild, tsx) emits none); ${FIX}`,
    },
  ]);
  assert.deepEqual(generated(Swc).issues, [
    {
      code: 'unknown-property-type',
      className: 'Swc',
      member: 'level',
      message:
        'Swc.level: the type of this property cannot be known (design:type is an enum object, as swc and oxc record for enums); add @IsEnum(TheEnum)',
    },
  ]);
});

test('@ValidateNested() on a property whose class cannot be known', () => {
  class Args {
    @ValidateNested() shape!: object;
  }
  assert.deepEqual(generated(Args).issues, [
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'shape',
      message:
        'Args.shape: @ValidateNested() cannot know the class of this property (design:type is not a class); add @Type(() => Class) from class-transformer',
    },
  ]);
});

test('a @Type() function that needs its argument is reported', () => {
  class A {
    @IsString() a!: string;
  }
  class Args {
    @ValidateNested() @Type((options) => ((options!.object as { kind: string }).kind === 'a' ? A : A)) value!: A;
  }
  const result = generated(Args);
  assert.deepEqual(result.issues, [
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'value',
      message:
        "Args.value: the @Type() function threw when called without arguments (Cannot read properties of undefined (reading 'object')); use @Type(() => Class)",
    },
  ]);
});

test('an array whose item type cannot be known is array-item-type', () => {
  class Args {
    @IsArray() tags!: string[];
    @ValidateNested({ each: true }) items!: object[];
    @Description('Plain list') plain!: string[];
  }
  const result = generated(Args);
  const message = (member: string) =>
    `Args.${member}: the items of this array have no known type; add @IsString({ each: true }) (or another type decorator with { each: true }), or @ValidateNested({ each: true }) with @Type(() => Item)`;
  assert.deepEqual(result.issues, [
    { code: 'array-item-type', className: 'Args', member: 'tags', message: message('tags') },
    { code: 'array-item-type', className: 'Args', member: 'items', message: message('items') },
    { code: 'array-item-type', className: 'Args', member: 'plain', message: message('plain') },
  ]);
  assert.deepEqual(
    result.schema,
    objectSchema({
      tags: { type: 'array', items: {} },
      items: { type: 'array', items: {} },
      plain: { description: 'Plain list', type: 'array', items: {} },
    }),
  );
});

test('without Reflect.getMetadata a property needing design:type is reflect-metadata-missing', () => {
  class Args {
    @IsString() typed!: string;
    @Description('Needs design:type') untyped!: string;
  }
  const reflect = Reflect as unknown as { getMetadata?: unknown };
  const saved = reflect.getMetadata;
  delete reflect.getMetadata;
  let result;
  try {
    result = generateSchema(Args);
  } finally {
    reflect.getMetadata = saved;
  }
  assert.deepEqual(result.issues, [
    {
      code: 'reflect-metadata-missing',
      className: 'Args',
      member: 'untyped',
      message:
        "Args.untyped: Reflect.getMetadata is missing, so the design:type of this property cannot be read; import 'reflect-metadata' (or toolwright) before your tool classes",
    },
  ]);
});

test('an undecorated field is reported, worded for arguments and for results', () => {
  class Args {
    @IsString() name!: string;
    cache = 3;
  }
  assert.deepEqual(generated(Args).issues, [
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'cache',
      message:
        'Args.cache: this property has no decorator and it is not in the schema, so a client can never set it; add a class-validator decorator such as @IsString() or @IsOptional(), or @Description(), or remove the property',
    },
  ]);
  assert.deepEqual(generated(Args, { role: 'result' }).issues, [
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'cache',
      message:
        'Args.cache: this property has no decorator and it is not in the output schema, so a result holding it is rejected; add a class-validator decorator such as @IsString() or @IsOptional(), or @Description(), or remove the property',
    },
  ]);
});

test('contradicting type decorators are invalid-schema', () => {
  class Args {
    @IsString() @IsInt() value!: string;
  }
  const result = generated(Args);
  assert.deepEqual(result.issues, [
    {
      code: 'invalid-schema',
      className: 'Args',
      member: 'value',
      message: 'Args.value: @IsInt() and @IsString() contradict each other, so no value can pass; remove one of them',
    },
  ]);
  assert.deepEqual(result.schema, objectSchema({ value: { not: {} } }));
});

test('a @Field default or example that is not JSON is invalid-schema', () => {
  class Args {
    @Field({ default: new Date(0) }) @IsString() since!: string;
    @Field({ examples: [1, () => 2] }) @IsInt() count!: number;
  }
  assert.deepEqual(generated(Args).issues, [
    {
      code: 'invalid-schema',
      className: 'Args',
      member: 'since',
      message:
        'Args.since: @Field({ default }): the default must be plain JSON (null, a boolean, a finite number, a string, or arrays and plain objects of those); use the value a client would send',
    },
    {
      code: 'invalid-schema',
      className: 'Args',
      member: 'count',
      message:
        'Args.count: @Field({ examples }): every example must be plain JSON (null, a boolean, a finite number, a string, or arrays and plain objects of those); use the value a client would send',
    },
  ]);
});

test('something that is not a DTO class is invalid-args-class', () => {
  assert.deepEqual(generateSchema(42 as unknown as Function), {
    schema: { type: 'object', properties: {}, additionalProperties: false },
    residual: [],
    issues: [
      {
        code: 'invalid-args-class',
        className: '',
        message: 'the arguments class must be a class whose properties carry class-validator decorators, got a number',
      },
    ],
  });
  assert.deepEqual(generateSchema(String, { role: 'result' }).issues, [
    {
      code: 'invalid-args-class',
      className: 'String',
      message: 'the result class must be a class whose properties carry class-validator decorators, got String',
    },
  ]);
});

test('custom constraints are residual under their class-validator names, and stay out of the schema', () => {
  @ValidatorConstraint({ name: 'isEven' })
  class IsEvenConstraint implements ValidatorConstraintInterface {
    validate(value: unknown) {
      return typeof value === 'number' && value % 2 === 0;
    }
  }
  class Unnamed implements ValidatorConstraintInterface {
    validate() {
      return true;
    }
  }
  function IsPalindrome(): PropertyDecorator {
    return (target, propertyName) =>
      registerDecorator({
        name: 'isPalindrome',
        target: target.constructor,
        propertyName: propertyName as string,
        validator: {
          validate: (value: unknown) => typeof value === 'string' && [...value].reverse().join('') === value,
        },
      });
  }
  class Args {
    @IsInt() @Validate(IsEvenConstraint) even!: number;
    @Validate(Unnamed) other!: string;
    @IsString() @IsPalindrome() word!: string;
    @IsString() @Matches(/^abc$/i) code!: string;
    @IsIBAN() iban!: string;
    @IsDate() @Type(() => Date) when!: Date;
  }
  const result = generated(Args);
  assert.deepEqual(
    result.schema,
    objectSchema({
      even: { type: 'integer' },
      other: { type: 'string' },
      word: { type: 'string' },
      code: { type: 'string' },
      iban: { type: 'string' },
      when: { type: 'string', format: 'date-time' },
    }),
  );
  assert.deepEqual(result.residual, [
    { className: 'Args', property: 'even', constraint: 'isEven' },
    { className: 'Args', property: 'other', constraint: 'Unnamed' },
    { className: 'Args', property: 'word', constraint: 'isPalindrome' },
    { className: 'Args', property: 'code', constraint: 'matches' },
    { className: 'Args', property: 'iban', constraint: 'isIBAN' },
    { className: 'Args', property: 'when', constraint: 'isDate' },
  ]);
  assert.deepEqual(result.issues, []);
});

test('a pattern ajv cannot compile in Unicode mode is residual', () => {
  class Args {
    // The needless escape is the point: Unicode mode (ajv's) refuses `\_`.
    // oxlint-disable-next-line no-useless-escape
    @Matches(/^[a-z\_]+$/) slug!: string;
  }
  const result = generated(Args);
  assert.deepEqual(result.schema, objectSchema({ slug: { type: 'string' } }));
  assert.deepEqual(result.residual, [{ className: 'Args', property: 'slug', constraint: 'matches' }]);
});

test('@ValidateIf() leaves the whole property to class-validator', () => {
  class Args {
    @IsString() kind!: string;
    @Description('Only for kind "url"') @ValidateIf((o: Args) => o.kind === 'url') @IsString() @Min(3) url?: string;
    @IsInt({ validateIf: (o: Args) => o.kind === 'n' }) @Min(0) n!: number;
  }
  const result = generated(Args);
  assert.deepEqual(
    result.schema,
    objectSchema({
      kind: { type: 'string' },
      url: { description: 'Only for kind "url"' },
      n: { type: 'number', minimum: 0 },
    }),
  );
  assert.deepEqual(result.residual, [
    { className: 'Args', property: 'url', constraint: 'min' },
    { className: 'Args', property: 'url', constraint: 'isString' },
    { className: 'Args', property: 'url', constraint: 'validateIf' },
    { className: 'Args', property: 'n', constraint: 'isInt' },
  ]);
  assert.deepEqual(result.issues, []);
});

test('residual constraints and issues of nested classes name the nested class', () => {
  @ValidatorConstraint({ name: 'isPrime' })
  class IsPrime implements ValidatorConstraintInterface {
    validate() {
      return true;
    }
  }
  class Inner {
    @IsInt() @Validate(IsPrime) n!: number;
    @IsArray() list!: unknown[];
  }
  class Args {
    @ValidateNested() @Type(() => Inner) inner!: Inner;
  }
  const result = generated(Args);
  assert.deepEqual(result.residual, [{ className: 'Inner', property: 'n', constraint: 'isPrime' }]);
  assert.deepEqual(result.issues, [
    {
      code: 'array-item-type',
      className: 'Inner',
      member: 'list',
      message:
        'Inner.list: the items of this array have no known type; add @IsString({ each: true }) (or another type decorator with { each: true }), or @ValidateNested({ each: true }) with @Type(() => Item)',
    },
  ]);
});

test('a list of allowed values with nothing a client can send is invalid-schema', () => {
  enum Direction {
    Up = 'up',
    Down = 'down',
  }
  class Args {
    @IsIn([]) none!: string;
    @IsIn([{ id: 1 }]) objects!: object;
    @IsEnum(Direction) @IsIn(['left']) disjoint!: string;
  }
  const result = generated(Args);
  assert.deepEqual(result.issues, [
    {
      code: 'invalid-schema',
      className: 'Args',
      member: 'none',
      message:
        'Args.none: @IsIn() lists no JSON value (its list is empty, or holds only objects or NaN, which never equal a sent value), so no value can pass; list the values a client may send',
    },
    {
      code: 'invalid-schema',
      className: 'Args',
      member: 'objects',
      message:
        'Args.objects: @IsIn() lists no JSON value (its list is empty, or holds only objects or NaN, which never equal a sent value), so no value can pass; list the values a client may send',
    },
    {
      code: 'invalid-schema',
      className: 'Args',
      member: 'disjoint',
      message:
        'Args.disjoint: @IsIn() and @IsEnum() have no JSON value in common, so no value can pass; list the values a client may send',
    },
  ]);
  assert.deepEqual(
    result.schema,
    objectSchema({ none: { not: {} }, objects: { not: {} }, disjoint: { type: 'string', not: {} } }),
  );
});
