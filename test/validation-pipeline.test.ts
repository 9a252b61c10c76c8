import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { InvalidArgumentsError, type JsonObject } from '../src/index.js';
import { createArgumentsPipeline, depthProblem, argumentsObject, kindOf } from '../src/compiler/validation/index.js';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

async function rejection(promise: Promise<unknown>): Promise<InvalidArgumentsError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof InvalidArgumentsError, `expected InvalidArgumentsError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

const LIMIT_SCHEMA: JsonObject = {
  type: 'object',
  properties: { path: { type: 'string' }, limit: { type: ['integer', 'null'], minimum: 1 } },
  required: ['path'],
  additionalProperties: false,
};

test('kindOf names every kind of value in words', () => {
  assert.deepEqual([null, undefined, [], 'x', 1, true, () => 1, {}, 1n, Symbol('s')].map(kindOf), [
    'null',
    'nothing',
    'an array',
    'a string',
    'a number',
    'a boolean',
    'a function',
    'an object',
    'a bigint',
    'a symbol',
  ]);
});

test('argumentsObject reads undefined and "" as a fresh {} and refuses non-objects', () => {
  assert.deepEqual(argumentsObject(undefined), { value: {} });
  assert.deepEqual(argumentsObject(''), { value: {} });
  assert.notEqual(argumentsObject('').value, argumentsObject('').value);
  const given = { a: 1 };
  assert.equal(argumentsObject(given).value, given);
  assert.deepEqual(argumentsObject('x'), { problem: { pointer: '', message: 'expected an object, got a string' } });
  assert.deepEqual(argumentsObject(null), { problem: { pointer: '', message: 'expected an object, got null' } });
  assert.deepEqual(argumentsObject([1]), { problem: { pointer: '', message: 'expected an object, got an array' } });
});

test('depthProblem allows exactly maxDepth levels and refuses one more', () => {
  assert.equal(depthProblem(nested(64)), undefined);
  assert.deepEqual(depthProblem(nested(65)), { pointer: '', message: 'nested deeper than 64 levels' });
  assert.equal(depthProblem(nested(3), 3), undefined);
  assert.deepEqual(depthProblem(nested(4), 3), { pointer: '', message: 'nested deeper than 3 levels' });
  assert.equal(depthProblem('text'), undefined);
  assert.equal(depthProblem(null), undefined);
});

test('depthProblem walks 100,000-deep objects and arrays without overflowing the stack', () => {
  assert.deepEqual(depthProblem(nested(100_000)), { pointer: '', message: 'nested deeper than 64 levels' });
  assert.deepEqual(depthProblem({ ok: 1, deep: nestedArrays(100_000) }), {
    pointer: '',
    message: 'nested deeper than 64 levels',
  });
  const parsed = JSON.parse('{"x":' + '['.repeat(5000) + ']'.repeat(5000) + '}');
  assert.deepEqual(depthProblem(parsed), { pointer: '', message: 'nested deeper than 64 levels' });
});

test('depthProblem refuses a cycle and walks a shared reference', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  assert.deepEqual(depthProblem(cyclic), { pointer: '', message: 'contains a cycle' });
  const shared = { x: [1, 2] };
  assert.equal(depthProblem({ a: shared, b: shared, c: [shared, shared] }), undefined);
});

test('the pipeline refuses non-objects with the kind named', async () => {
  const pipeline = createArgumentsPipeline({ schema: LIMIT_SCHEMA });
  for (const [raw, kind] of [
    [null, 'null'],
    [[], 'an array'],
    ['{"path":"a"}', 'a string'],
    [5, 'a number'],
    [false, 'a boolean'],
  ] as const) {
    const err = await rejection(pipeline.parse(raw));
    assert.equal(err.message, `invalid arguments: expected an object, got ${kind}`);
    assert.deepEqual(err.problems, [{ pointer: '', message: `expected an object, got ${kind}` }]);
  }
});

test('the pipeline caps depth before validating: 5,000 and 100,000 deep under an unknown key', async () => {
  const pipeline = createArgumentsPipeline({ schema: LIMIT_SCHEMA });
  const five = JSON.parse('{"path":"a","extra":' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) + '}');
  assert.equal((await rejection(pipeline.parse(five))).message, 'invalid arguments: nested deeper than 64 levels');
  const hundred = { path: 'a', extra: nestedArrays(100_000) };
  assert.equal((await rejection(pipeline.parse(hundred))).message, 'invalid arguments: nested deeper than 64 levels');
  const shallow = createArgumentsPipeline({ schema: LIMIT_SCHEMA, maxDepth: 2 });
  assert.equal(
    (await rejection(shallow.parse({ path: 'a', extra: { b: {} } }))).message,
    'invalid arguments: nested deeper than 2 levels',
  );
});

test('maxDepth must be a positive integer', () => {
  assert.throws(() => createArgumentsPipeline({ schema: LIMIT_SCHEMA, maxDepth: 0 }), {
    name: 'TypeError',
    message: 'createArgumentsPipeline: "maxDepth" must be a positive integer, got 0',
  });
});

test('the pipeline lists every schema problem with its pointer', async () => {
  const pipeline = createArgumentsPipeline({ schema: LIMIT_SCHEMA });
  assert.equal(
    (await rejection(pipeline.parse({ path: 'a', limit: 0 }))).message,
    'invalid arguments: /limit: must be >= 1',
  );
  const many = await rejection(pipeline.parse({ limit: 'ten', more: 1 }));
  assert.equal(
    many.message,
    'invalid arguments: /: must have required property "path"; /: must NOT have additional property "more"; /limit: must be integer or null',
  );
});

test('an own __proto__ key from JSON.parse is refused cleanly and pollutes nothing', async () => {
  const pipeline = createArgumentsPipeline({ schema: LIMIT_SCHEMA });
  const raw = JSON.parse('{"path":"a","__proto__":{"polluted":1}}');
  const err = await rejection(pipeline.parse(raw));
  assert.equal(err.message, 'invalid arguments: /: must NOT have additional property "__proto__"');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
  const bare = await rejection(pipeline.parse(JSON.parse('{"__proto__":{"polluted":1}}')));
  assert.equal(
    bare.message,
    'invalid arguments: /: must have required property "path"; /: must NOT have additional property "__proto__"',
  );
  const ctor = await rejection(pipeline.parse(JSON.parse('{"path":"a","constructor":{"prototype":{"polluted":1}}}')));
  assert.equal(ctor.message, 'invalid arguments: /: must NOT have additional property "constructor"');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('the pipeline builds the DTO without conversion and drops nulls of optional properties', async () => {
  class Args {
    @IsString() path!: string;
    @IsOptional() @IsInt() limit?: number = 10;
  }
  const pipeline = createArgumentsPipeline({ schema: LIMIT_SCHEMA, dto: Args });
  assert.equal(pipeline.checksResidual, false);
  const raw = { path: 'a', limit: null };
  const dto = (await pipeline.parse(raw)) as Args;
  assert.ok(dto instanceof Args);
  assert.deepEqual({ ...dto }, { path: 'a', limit: 10 });
  assert.deepEqual(raw, { path: 'a', limit: null }, 'the raw arguments are never changed');
  const given = (await pipeline.parse({ path: 'b', limit: 3 })) as Args;
  assert.deepEqual({ ...given }, { path: 'b', limit: 3 });
  assert.equal(
    (await rejection(pipeline.parse({ path: 'a', limit: '5' }))).message,
    'invalid arguments: /limit: must be integer or null',
  );
});

test('nulls are dropped in nested objects and array items, through $refs', async () => {
  class Inner {
    @IsString() code!: string;
    @IsOptional() @IsString() note?: string;
  }
  class Outer {
    @ValidateNested() @Type(() => Inner) inner!: Inner;
    @ValidateNested({ each: true }) @Type(() => Inner) list!: Inner[];
  }
  const schema: JsonObject = {
    type: 'object',
    properties: { inner: { $ref: '#/$defs/Inner' }, list: { type: 'array', items: { $ref: '#/$defs/Inner' } } },
    required: ['inner', 'list'],
    additionalProperties: false,
    $defs: {
      Inner: {
        type: 'object',
        properties: { code: { type: 'string' }, note: { type: ['string', 'null'] } },
        required: ['code'],
        additionalProperties: false,
      },
    },
  };
  const pipeline = createArgumentsPipeline({ schema, dto: Outer });
  const raw = {
    inner: { code: 'a', note: null },
    list: [
      { code: 'b', note: null },
      { code: 'c', note: 'n' },
    ],
  };
  const dto = (await pipeline.parse(raw)) as Outer;
  assert.ok(dto.inner instanceof Inner);
  assert.ok(dto.list[0] instanceof Inner);
  assert.deepEqual(
    [{ ...dto.inner }, ...dto.list.map((item) => ({ ...item }))],
    [
      { code: 'a', note: undefined },
      { code: 'b', note: undefined },
      { code: 'c', note: 'n' },
    ],
  );
  assert.deepEqual(raw.inner, { code: 'a', note: null });
  assert.equal(
    (await rejection(pipeline.parse({ inner: { code: null }, list: [] }))).message,
    'invalid arguments: /inner/code: must be string',
  );
});

test('residual constraints run with class-validator and report only their own errors', async () => {
  @ValidatorConstraint({ name: 'isEven' })
  class IsEven implements ValidatorConstraintInterface {
    validate(value: unknown): boolean {
      return typeof value === 'number' && value % 2 === 0;
    }
    defaultMessage(): string {
      return 'must be an even number';
    }
  }
  class Args {
    @IsInt() @Validate(IsEven) count!: number;
    @IsString() label!: string;
  }
  const schema: JsonObject = {
    type: 'object',
    properties: { count: { type: 'integer' }, label: { type: 'string' } },
    required: ['count', 'label'],
    additionalProperties: false,
  };
  const pipeline = createArgumentsPipeline({
    schema,
    dto: Args,
    residual: [{ className: 'Args', property: 'count', constraint: 'isEven' }],
  });
  assert.equal(pipeline.checksResidual, true);
  const valid = (await pipeline.parse({ count: 4, label: 'x' })) as Args;
  assert.ok(valid instanceof Args);
  assert.deepEqual({ ...valid }, { count: 4, label: 'x' });
  const err = await rejection(pipeline.parse({ count: 3, label: 'x' }));
  assert.equal(err.message, 'invalid arguments: /count: must be an even number');
  assert.equal(
    (await rejection(pipeline.parse({ count: 3 }))).message,
    'invalid arguments: /: must have required property "label"',
    'ajv problems come first and stop the call',
  );
});
