import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { Type } from 'class-transformer';
import { compileInDialect, dialectOf } from '../src/compiler/validation/dialect.js';
import { compileWhenFirstUsed, isSchemaValidator, type SchemaValidator } from '../src/compiler/validation/validator.js';
import { residualCheckOf } from '../src/compiler/validation/residual.js';
import { createArgumentsPipeline } from '../src/compiler/validation/pipeline.js';
import type { JsonObject } from '../src/contract/index.js';
import { compilesDuring, IsCode } from './support/validation-helpers.js';

// Imports stop at the validation module and the contract's types (never the package root): each
// mutant runs this file in a fresh process, so it loads only what it tests.

/*
 * Corners of the validation module that mutation testing (`npm run mutate:validation`) found
 * unpinned: the draft-07 and draft-04 validators' options and which dialect gets which, a
 * function is no validator, a lazily compiled schema's `errors` before its first use, residual
 * checks only with a DTO and only for listed constraints in nested objects. See docs/mutation.md.
 * Runs in about a second.
 */

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

test('draft-07 and draft-04 schemas: every error at once, formats checked, nothing coerced, filled in or removed, unknown keywords ignored', () => {
  for (const $schema of [DRAFT_07, DRAFT_04]) {
    const validate = compileInDialect({
      $schema,
      type: 'object',
      properties: {
        n: { type: 'integer' },
        mail: { type: 'string', format: 'email' },
        d: { type: 'string', default: 'x' },
        odd: { madeUpKeyword: 1 },
      },
      required: ['n'],
      additionalProperties: false,
    })!;
    const value = { n: '5', mail: 'nope', extra: 1 };
    assert.equal(validate(value), false, $schema);
    assert.deepEqual(
      validate.errors!.map((e) => e.keyword).sort(),
      ['additionalProperties', 'format', 'type'],
      $schema,
    );
    assert.deepEqual(value, { n: '5', mail: 'nope', extra: 1 }, $schema);
    const fine = { n: 1 };
    assert.equal(validate(fine), true, $schema);
    assert.deepEqual(fine, { n: 1 }, $schema);
  }
});

test('draft-07 schemas are validated as draft-07 (const, numeric exclusiveMinimum) and draft-04 ones as draft-04', () => {
  const seven = compileInDialect({
    $schema: DRAFT_07,
    type: 'object',
    properties: { k: { const: 'a' }, n: { type: 'number', exclusiveMinimum: 1 } },
  })!;
  assert.deepEqual([seven({ k: 'a', n: 2 }), seven({ k: 'b' }), seven({ n: 1 })], [true, false, false]);
  const four = compileInDialect({
    $schema: DRAFT_04,
    type: 'object',
    properties: { n: { type: 'number', minimum: 1, exclusiveMinimum: true } },
  })!;
  assert.deepEqual([four({ n: 2 }), four({ n: 1 })], [true, false]);
  const again = compileInDialect({ $schema: DRAFT_07, type: 'object', properties: { k: { const: 'b' } } })!;
  assert.deepEqual([again({ k: 'b' }), again({ k: 'a' }), seven({ k: 'a' })], [true, false, true]);
});

test('dialectOf: a $schema that is not a string names no dialect', () => {
  for (const declared of [7, null, true, ['http://json-schema.org/draft-07/schema#'], {}])
    assert.equal(dialectOf({ $schema: declared as never }), undefined, JSON.stringify(declared));
});

test('isSchemaValidator: a function carrying a compile function is not a validator', () => {
  const fn = Object.assign(() => undefined, { compile: () => () => true });
  assert.equal(isSchemaValidator(fn), false);
  assert.equal(isSchemaValidator({ compile: () => () => true }), true);
});

test("a schema compiled on first use has no errors before it checks anything, then the last check's", () => {
  const check = compileWhenFirstUsed({ type: 'object', properties: { n: { type: 'integer' } } });
  assert.equal(check.errors, null);
  assert.equal(check({ n: 'x' }), false);
  assert.deepEqual(
    check.errors!.map((e) => `${e.instancePath} ${e.message}`),
    ['/n must be integer'],
  );
  assert.equal(check({ n: 1 }), true);
  assert.equal(check.errors, null);
});

test('compileWhenFirstUsed: a plain schema is compiled by its first check, once; any other schema, or any schema of a validator given, at once', async () => {
  let check!: ReturnType<typeof compileWhenFirstUsed>;
  assert.equal(
    await compilesDuring(
      () => (check = compileWhenFirstUsed({ type: 'object', properties: { n: { type: 'integer' } } })),
    ),
    0,
  );
  assert.equal(await compilesDuring(() => assert.equal(check({ n: 'x' }), false)), 1);
  assert.equal(await compilesDuring(() => assert.equal(check({ n: 1 }), true)), 0);
  assert.equal(
    await compilesDuring(() =>
      compileWhenFirstUsed({ type: 'object', properties: { s: { type: 'string', format: 'made-up' } } }),
    ),
    1,
  );
  assert.throws(
    () => compileWhenFirstUsed({ type: 'object', properties: { n: { type: 'nope' } } }),
    /schema is invalid/,
  );
  const compiled: object[] = [];
  const own: SchemaValidator = {
    compile: (schema) => {
      compiled.push(schema);
      return () => true;
    },
  };
  const plain = { type: 'object' };
  compileWhenFirstUsed(plain, own);
  assert.deepEqual(compiled, [plain]);
});

@ValidatorConstraint({ name: 'isShort' })
class IsShort implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length < 3;
  }
  defaultMessage(): string {
    return 'must be short';
  }
}

class Leaf {
  @Validate(IsCode) code!: string;
}

class Branch {
  @Validate(IsShort) @Validate(IsCode) code!: string;
  @ValidateNested() @Type(() => Leaf) leaf!: Leaf;
}

class Root {
  @ValidateNested() @Type(() => Branch) branch!: Branch;
  @Validate(IsCode) code!: string;
}

function build<T extends object>(cls: new () => T, values: Record<string, unknown>): T {
  return Object.assign(new cls(), values);
}

test('residual checks: only the listed constraints, by class, property and name, at every level of nesting', async () => {
  const root = build(Root, {
    code: 'bad',
    branch: build(Branch, { code: 'long-bad', leaf: build(Leaf, { code: 'bad' }) }),
  });
  const all = residualCheckOf([
    { className: 'Root', property: 'code', constraint: 'isCode' },
    { className: 'Branch', property: 'code', constraint: 'isShort' },
    { className: 'Leaf', property: 'code', constraint: 'isCode' },
  ])!;
  assert.deepEqual(await all.problems(root), [
    { pointer: '/branch/code', message: 'must be short' },
    { pointer: '/branch/leaf/code', message: 'must be upper-case letters' },
    { pointer: '/code', message: 'must be upper-case letters' },
  ]);
  const leafOnly = residualCheckOf([{ className: 'Leaf', property: 'code', constraint: 'isCode' }])!;
  assert.deepEqual(await leafOnly.problems(root), [
    { pointer: '/branch/leaf/code', message: 'must be upper-case letters' },
  ]);
  const wrongClass = residualCheckOf([
    { className: 'Branch', property: 'code', constraint: 'isCode' },
    { className: 'Root', property: 'code', constraint: 'isShort' },
  ])!;
  assert.deepEqual(await wrongClass.problems(root), [
    { pointer: '/branch/code', message: 'must be upper-case letters' },
  ]);
  assert.deepEqual(
    await all.problems(
      build(Root, { code: 'OK', branch: build(Branch, { code: 'OK', leaf: build(Leaf, { code: 'OK' }) }) }),
    ),
    [],
  );
  assert.equal(residualCheckOf([]), undefined);
});

test('the pipeline runs residual checks only when it builds a DTO', async () => {
  const schema: JsonObject = { type: 'object', properties: { code: { type: 'string' } } };
  const residual = [{ className: 'Leaf', property: 'code', constraint: 'isCode' }];
  const plain = createArgumentsPipeline({ schema, residual });
  assert.equal(plain.checksResidual, false);
  assert.deepEqual(await plain.parse({ code: 'bad' }), { code: 'bad' });
  const withDto = createArgumentsPipeline({ schema, residual, dto: Leaf });
  assert.equal(withDto.checksResidual, true);
  await assert.rejects(withDto.parse({ code: 'bad' }), {
    name: 'InvalidArgumentsError',
    message: 'invalid arguments: /code: must be upper-case letters',
  });
  const built = await withDto.parse({ code: 'OK' });
  assert.ok(built instanceof Leaf);
  assert.deepEqual({ ...built }, { code: 'OK' });
});

test('compileInDialect: the draft-07 and draft-04 validators keep nothing once a schema is compiled, so two schemas with one $id both compile', () => {
  for (const $schema of ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-04/schema#']) {
    const schema = (maximum: number): JsonObject => ({
      $schema,
      $id: 'https://example.com/args',
      type: 'object',
      properties: { n: { type: 'integer', maximum } },
    });
    // A consumed server's tools listed again (a refresh) compile the same $id once more: an ajv
    // instance that kept the first would throw `schema with key or id "..." already exists`.
    const first = compileInDialect(schema(1))!;
    const second = compileInDialect(schema(10))!;
    assert.deepEqual([first({ n: 5 }), second({ n: 5 }), second({ n: 11 })], [false, true, false], $schema);
  }
});
