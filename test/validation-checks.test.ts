import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidateNested, Validate } from 'class-validator';
import { Type } from 'class-transformer';
import { compileInDialect, dialectOf } from '../src/compiler/validation/dialect.js';
import {
  checkValidatorOption,
  compileSchema,
  createValidator,
  defaultValidator,
  isSchemaValidator,
  type SchemaValidator,
} from '../src/compiler/validation/validator.js';
import { checkOutputSchema } from '../src/compiler/validation/output-check.js';
import { createArgumentsPipeline, argumentsObject, depthProblem } from '../src/compiler/validation/index.js';
import { InvalidArgumentsError, type JsonObject } from '../src/contract/index.js';
import { IsCode } from './support/validation-helpers.js';

// Imports stop at the validation module and the contract (never the package root): each mutant
// runs this file in a fresh process, so it loads only what it tests.

/*
 * The validation module (`compiler/validation`) as mutation testing (`npm run mutate:validation`)
 * found it unpinned: dialects, the validator option and cache, the output check, the pipeline's
 * frozen shape and stack-free errors, the depth walk past its fast budget, residual pointers.
 * See docs/mutation.md.
 */

const OBJECT_WITH_N: JsonObject = {
  type: 'object',
  properties: { n: { type: 'number' } },
  additionalProperties: false,
};

test('dialectOf: none is 2020-12; the draft-07 and draft-04 URIs with or without "#"; anything else is unknown', () => {
  const cases: readonly [unknown, string | undefined][] = [
    [undefined, '2020-12'],
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
    ['http://json-schema.org/draft-07/schema', 'draft-07'],
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-04/schema', 'draft-04'],
    ['http://json-schema.org/draft-04/schema#', 'draft-04'],
    ['https://json-schema.org/draft/2019-09/schema', undefined],
    [7, undefined],
  ];
  for (const [declared, dialect] of cases)
    assert.equal(
      dialectOf(declared === undefined ? { type: 'object' } : { type: 'object', $schema: declared as never }),
      dialect,
      String(declared),
    );
});

test('compileInDialect validates in the declared dialect: draft-07 tuples, draft-04 boolean exclusiveMinimum, 2020-12 with the given validator', () => {
  const tuple = compileInDialect({
    $schema: 'http://json-schema.org/draft-07/schema',
    type: 'object',
    properties: { p: { type: 'array', items: [{ type: 'number' }] } },
  })!;
  assert.deepEqual([tuple({ p: [1, 'rest'] }), tuple({ p: ['x'] })], [true, false]);
  const exclusive = compileInDialect({
    $schema: 'http://json-schema.org/draft-04/schema#',
    type: 'object',
    properties: { n: { type: 'number', minimum: 1, exclusiveMinimum: true } },
  })!;
  assert.deepEqual([exclusive({ n: 2 }), exclusive({ n: 1 })], [true, false]);
  assert.equal(compileInDialect({ $schema: 'https://example.com/mine', type: 'object' }), undefined);
  const compiled: object[] = [];
  const own: SchemaValidator = {
    compile: (schema) => {
      compiled.push(schema);
      return () => true;
    },
  };
  const schema: JsonObject = { type: 'object' };
  assert.equal(compileInDialect(schema, own)!({}), true);
  assert.deepEqual(compiled, [schema]);
  assert.throws(() => compileInDialect({ type: 'object', properties: { n: { type: 'nope' } } }), /schema is invalid/);
});

test('isSchemaValidator and checkValidatorOption: an object with compile (and removeSchema, when given, a function)', () => {
  assert.equal(isSchemaValidator({ compile: () => () => true }), true);
  assert.equal(isSchemaValidator({ compile: () => () => true, removeSchema: () => undefined }), true);
  assert.equal(isSchemaValidator({ compile: () => () => true, removeSchema: 'no' }), false);
  assert.equal(isSchemaValidator({ compile: 'no' }), false);
  assert.equal(isSchemaValidator(null), false);
  assert.equal(
    isSchemaValidator(() => undefined),
    false,
  );
  const ajv = createValidator();
  assert.equal(checkValidatorOption(ajv, 'host'), ajv);
  assert.equal(checkValidatorOption(undefined, 'host'), undefined);
  assert.throws(() => checkValidatorOption({ compile: 1 }, 'host'), {
    name: 'TypeError',
    message:
      'host: "validator" must be an object with a compile(schema) function (an Ajv instance, for one), got an object',
  });
  assert.throws(() => checkValidatorOption('ajv', 'host'), {
    name: 'TypeError',
    message:
      'host: "validator" must be an object with a compile(schema) function (an Ajv instance, for one), got a string',
  });
});

test('compileSchema compiles once per validator and schema object, removes the schema from the validator even when compiling fails', () => {
  const calls: string[] = [];
  const validator: SchemaValidator = {
    compile: (schema) => {
      calls.push(`compile ${JSON.stringify(schema)}`);
      if ((schema as { bad?: boolean }).bad === true) throw new Error('bad schema');
      return () => true;
    },
    removeSchema: (schema) => {
      calls.push(`remove ${JSON.stringify(schema)}`);
    },
  };
  const schema = { type: 'object' };
  const first = compileSchema(schema, validator);
  assert.equal(compileSchema(schema, validator), first);
  assert.notEqual(compileSchema({ type: 'object' }, validator), first);
  assert.throws(() => compileSchema({ bad: true }, validator), { message: 'bad schema' });
  assert.deepEqual(calls, [
    'compile {"type":"object"}',
    'remove {"type":"object"}',
    'compile {"type":"object"}',
    'remove {"type":"object"}',
    'compile {"bad":true}',
    'remove {"bad":true}',
  ]);
  const other: SchemaValidator = { compile: () => () => false };
  assert.equal(compileSchema(schema, other)({}), false);
  assert.equal(defaultValidator(), defaultValidator());
  assert.equal(compileSchema(OBJECT_WITH_N)({ n: 'x' }), false);
});

test('createValidator: every error at once, formats checked, nothing coerced, removed or filled in', () => {
  const validate = createValidator().compile({
    type: 'object',
    properties: {
      n: { type: 'integer' },
      mail: { type: 'string', format: 'email' },
      d: { type: 'string', default: 'x' },
    },
    required: ['n'],
    additionalProperties: false,
  });
  const value = { n: '5', mail: 'nope', extra: 1 };
  assert.equal(validate(value), false);
  assert.deepEqual(validate.errors!.map((e) => e.keyword).sort(), ['additionalProperties', 'format', 'type']);
  assert.deepEqual(value, { n: '5', mail: 'nope', extra: 1 });
  const empty = { n: 1 };
  assert.equal(validate(empty), true);
  assert.deepEqual(empty, { n: 1 });
  assert.equal(createValidator().compile({ type: 'object', unknownKeyword: 1 })({}), true, 'strict is off');
});

test('checkOutputSchema: isError is not checked, isError false is, problems joined by "; "', () => {
  const validate = compileSchema({
    type: 'object',
    properties: { n: { type: 'integer' }, s: { type: 'string' } },
    required: ['n'],
  });
  assert.equal(checkOutputSchema(validate, { content: [], isError: true }), undefined);
  assert.equal(checkOutputSchema(validate, { content: [], structuredContent: { n: 1 } }), undefined);
  assert.throws(() => checkOutputSchema(validate, { content: [], isError: false }), {
    name: 'OutputSchemaMismatchError',
    message: 'structured content does not match the output schema: the tool returned no structured content',
  });
  assert.throws(() => checkOutputSchema(validate, { content: [], structuredContent: { n: 1.5, s: 2 } }), {
    name: 'OutputSchemaMismatchError',
    message: 'structured content does not match the output schema: /n: must be integer; /s: must be string',
  });
});

test('argumentsObject: a fresh {} each time; an object is used as it is', () => {
  const a = argumentsObject(undefined).value;
  const b = argumentsObject('').value;
  assert.deepEqual([a, b], [{}, {}]);
  assert.notEqual(a, b);
  const given = { n: 1 };
  assert.equal(argumentsObject(given).value, given);
  assert.deepEqual(argumentsObject(0), { problem: { pointer: '', message: 'expected an object, got a number' } });
});

test("depthProblem past the fast walk's budget: a wide tree is still fine, a deep branch is still found, arrays count as levels", () => {
  const wide = { items: Array.from({ length: 120_000 }, () => ({})) };
  assert.equal(depthProblem(wide), undefined);
  const deepLast = { items: [...wide.items, [[[[1]]]]] };
  assert.deepEqual(depthProblem(deepLast, 4), { pointer: '', message: 'nested deeper than 4 levels' });
  assert.equal(depthProblem([[[]]], 3), undefined);
  assert.deepEqual(depthProblem([[[[]]]], 3), { pointer: '', message: 'nested deeper than 3 levels' });
  const shared = { leaf: {} };
  assert.deepEqual(depthProblem({ a: shared, b: { c: shared } }, 3), {
    pointer: '',
    message: 'nested deeper than 3 levels',
  });
  assert.equal(depthProblem({ a: shared, b: { c: shared } }, 4), undefined);
});

test('the pipeline is frozen, says what it checks, hands over the validated object itself, and never changes the input', async () => {
  const pipeline = createArgumentsPipeline({ schema: OBJECT_WITH_N });
  assert.equal(Object.isFrozen(pipeline), true);
  assert.equal(pipeline.schema, OBJECT_WITH_N);
  assert.equal(pipeline.maxDepth, 64);
  assert.equal(pipeline.checksResidual, false);
  const given = { n: 1 };
  assert.equal(await pipeline.parse(given), given);
  assert.equal(createArgumentsPipeline({ schema: OBJECT_WITH_N, maxDepth: 3 }).maxDepth, 3);
  for (const bad of [1.5, -1, Number.NaN])
    assert.throws(() => createArgumentsPipeline({ schema: OBJECT_WITH_N, maxDepth: bad }), {
      name: 'TypeError',
      message: `createArgumentsPipeline: "maxDepth" must be a positive integer, got ${String(bad)}`,
    });
  const nullable = createArgumentsPipeline({
    schema: { type: 'object', properties: { n: { type: ['number', 'null'] } } },
  });
  const withNull = { n: null };
  assert.deepEqual(await nullable.parse(withNull), {});
  assert.deepEqual(withNull, { n: null });
});

test("a refused call's error has no stack frames, and the stack limit is restored afterwards", async () => {
  const before = Error.stackTraceLimit;
  const pipeline = createArgumentsPipeline({ schema: OBJECT_WITH_N });
  for (const raw of [7, { n: 'x' }, { a: { b: { c: {} } } }]) {
    const error = await pipeline.parse(raw).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.ok(error instanceof InvalidArgumentsError);
    assert.equal(
      error.stack!.split('\n').filter((line) => line.trimStart().startsWith('at ')).length,
      0,
      JSON.stringify(raw),
    );
    assert.equal(Error.stackTraceLimit, before);
  }
  const shallow = createArgumentsPipeline({ schema: { type: 'object' }, maxDepth: 1 });
  await assert.rejects(shallow.parse({ a: {} }), { message: 'invalid arguments: nested deeper than 1 levels' });
});

test('residual problems in nested objects and items get escaped JSON pointers; other constraints are not reported', async () => {
  class Item {
    @Validate(IsCode) 'a/b~c'!: string;
  }
  class Args {
    @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
    @Validate(IsCode) top!: string;
  }
  const schema: JsonObject = {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { 'a/b~c': { type: 'string' } } } },
      top: { type: 'string' },
    },
  };
  const pipeline = createArgumentsPipeline({
    schema,
    dto: Args,
    residual: [{ className: 'Item', property: 'a/b~c', constraint: 'isCode' }],
  });
  assert.equal(pipeline.checksResidual, true);
  await assert.rejects(pipeline.parse({ items: [{ 'a/b~c': 'OK' }, { 'a/b~c': 'no' }], top: 'lower' }), {
    message: 'invalid arguments: /items/1/a~1b~0c: must be upper-case letters',
  });
  const built = (await pipeline.parse({ items: [{ 'a/b~c': 'OK' }], top: 'lower' })) as Args;
  assert.ok(built instanceof Args);
  assert.ok(built.items[0] instanceof Item);
  const none = createArgumentsPipeline({ schema, dto: Args, residual: [] });
  assert.equal(none.checksResidual, false);
  assert.ok((await none.parse({ items: [{ 'a/b~c': 'no' }], top: 'no' })) instanceof Args);
});
