import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { problemsOf, problemsText } from '../src/compiler/validation/ajv.js';
import { createValidator } from '../src/compiler/validation/validator.js';

// Imports stop at the validation module (never the package root): each mutant runs this file in
// a fresh process, so it loads only what it tests.

/*
 * How ajv's errors become the problems a model reads (`problemsOf`), as mutation testing (`npm
 * run mutate:validation`) found it unpinned: duplicates, `anyOf` and `oneOf` folded by type,
 * discriminated unions (a branch chosen, none chosen, discriminators at different places, a
 * `const` deeper in a branch), `enum` and `const` beside a type mismatch, and each keyword's
 * message. Expected problems are exact, from ajv's real errors where ajv can make them. See
 * docs/mutation.md. Runs in well under a second.
 */

const ajv = createValidator();

/** The problems of `value` against `schema`, as the pipeline reports them. */
function problems(schema: object, value: unknown): unknown {
  const validate = ajv.compile(schema);
  assert.equal(validate(value), false, `${JSON.stringify(value)} should be invalid`);
  return problemsOf(validate.errors);
}

/** An ajv error made by hand, for shapes ajv itself does not produce. */
function error(
  keyword: string,
  instancePath: string,
  schemaPath: string,
  params: Record<string, unknown> = {},
  message?: string,
): ErrorObject {
  return message === undefined
    ? { keyword, instancePath, schemaPath, params }
    : { keyword, instancePath, schemaPath, params, message };
}

const SHAPE = {
  type: 'object',
  properties: {
    s: {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'circle' }, r: { type: 'number', minimum: 0 } },
          required: ['kind', 'r'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'square' }, side: { type: 'number' } },
          required: ['kind', 'side'],
        },
      ],
    },
  },
};

test("no errors, no problems; the same problem twice is listed once, in ajv's order", () => {
  for (const none of [null, undefined, []]) assert.deepEqual(problemsOf(none), []);
  const twice = [
    error('minimum', '/n', '#/properties/n/minimum', {}, 'must be >= 1'),
    error('required', '', '#/required', { missingProperty: 'a' }),
    error('minimum', '/n', '#/allOf/0/properties/n/minimum', {}, 'must be >= 1'),
  ];
  assert.deepEqual(problemsOf(twice), [
    { pointer: '/n', message: 'must be >= 1' },
    { pointer: '/', message: 'must have required property "a"' },
  ]);
  assert.equal(problemsText(twice), '/n: must be >= 1; /: must have required property "a"');
  assert.equal(problemsText(null), '');
});

test("a value of no branch's type is one problem naming each type once, for anyOf and oneOf, at the root too", () => {
  assert.deepEqual(problems({ anyOf: [{ type: 'object' }, { type: 'null' }] }, 5), [
    { pointer: '/', message: 'must be object or null' },
  ]);
  assert.deepEqual(problems({ oneOf: [{ type: 'object' }, { type: 'null' }] }, 5), [
    { pointer: '/', message: 'must be object or null' },
  ]);
  assert.deepEqual(
    problems(
      {
        type: 'object',
        properties: { x: { anyOf: [{ type: ['string', 'number'] }, { type: 'null' }, { type: 'string' }] } },
      },
      { x: true },
    ),
    [{ pointer: '/x', message: 'must be string, number or null' }],
  );
  assert.deepEqual(problems(SHAPE, { s: 5 }), [{ pointer: '/s', message: 'must be object' }]);
  assert.deepEqual(
    problemsOf([
      error('type', '/x', '#/properties/x/anyOf/0/type', { type: 'string,integer' }),
      error('anyOf', '/x', '#/properties/x/anyOf'),
    ]),
    [{ pointer: '/x', message: 'must be string or integer' }],
  );
});

test("an anyOf with no branch errors keeps its own message; a type mismatch elsewhere is not one of its branches'", () => {
  assert.deepEqual(problemsOf([error('anyOf', '/x', '#/properties/x/anyOf', {}, 'must match a schema in anyOf')]), [
    { pointer: '/x', message: 'must match a schema in anyOf' },
  ]);
  const mixed = [
    error('type', '/x', '#/properties/x/anyOf/0/type', { type: 'string' }),
    error('type', '/y', '#/properties/y/type', { type: 'integer' }),
    error('type', '/x', '#/properties/x/anyOf/1/type', { type: 'null' }),
    error('anyOf', '/x', '#/properties/x/anyOf', {}, 'must match a schema in anyOf'),
  ];
  assert.deepEqual(problemsOf(mixed), [
    { pointer: '/y', message: 'must be integer' },
    { pointer: '/x', message: 'must be string or null' },
  ]);
  const samePrefix = [
    error('type', '/x', '#/properties/x/anyOfOther/type', { type: 'string' }),
    error('type', '/x', '#/properties/x/anyOf/0/type', { type: 'null' }),
    error('anyOf', '/x', '#/properties/x/anyOf'),
  ];
  assert.deepEqual(problemsOf(samePrefix), [
    { pointer: '/x', message: 'must be string' },
    { pointer: '/x', message: 'must be null' },
  ]);
});

test('a branch of the right type that failed deeper: only its own problems', () => {
  const nullableObject = {
    type: 'object',
    properties: {
      inner: { anyOf: [{ type: 'object', properties: { n: { type: 'integer', minimum: 1 } } }, { type: 'null' }] },
    },
  };
  assert.deepEqual(problems(nullableObject, { inner: { n: 0 } }), [{ pointer: '/inner/n', message: 'must be >= 1' }]);
  assert.deepEqual(problems(nullableObject, { inner: { n: 'x' } }), [
    { pointer: '/inner/n', message: 'must be integer' },
  ]);
  const twoLevels = {
    type: 'object',
    properties: {
      a: {
        oneOf: [
          { type: 'object', properties: { b: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
          { type: 'null' },
        ],
      },
    },
  };
  assert.deepEqual(problems(twoLevels, { a: { b: 1 } }), [{ pointer: '/a/b', message: 'must be string or null' }]);
});

test('a discriminated union: the branch the discriminator names, or one line naming every discriminator value', () => {
  assert.deepEqual(problems(SHAPE, { s: { kind: 'circle', r: -1 } }), [{ pointer: '/s/r', message: 'must be >= 0' }]);
  assert.deepEqual(problems(SHAPE, { s: { kind: 'square' } }), [
    { pointer: '/s', message: 'must have required property "side"' },
  ]);
  assert.deepEqual(problems(SHAPE, { s: { kind: 'oval' } }), [
    { pointer: '/s/kind', message: 'must be one of "circle", "square"' },
  ]);
  const three = { oneOf: [1, 2, 3].map((n) => ({ type: 'object', properties: { v: { const: n } }, required: ['v'] })) };
  assert.deepEqual(problems(three, { v: 4 }), [{ pointer: '/v', message: 'must be one of 1, 2, 3' }]);
});

test('not a discriminator: a const deeper in a branch, a const on the value itself, discriminators at different places', () => {
  const deep = {
    oneOf: [
      {
        type: 'object',
        properties: { kind: { const: 'a' }, inner: { type: 'object', properties: { c: { const: 1 } } } },
      },
      { type: 'object', properties: { kind: { const: 'b' } } },
    ],
  };
  assert.deepEqual(problems(deep, { kind: 'a', inner: { c: 2 } }), [{ pointer: '/inner/c', message: 'must be 1' }]);
  assert.deepEqual(problems({ type: 'object', properties: { x: { oneOf: [{ const: 1 }, { const: 2 }] } } }, { x: 3 }), [
    { pointer: '/x', message: 'must be 1' },
    { pointer: '/x', message: 'must be 2' },
  ]);
  const apart = {
    oneOf: [
      { type: 'object', properties: { a: { const: 1 } } },
      { type: 'object', properties: { b: { const: 2 } } },
    ],
  };
  assert.deepEqual(problems(apart, { a: 0, b: 0 }), [
    { pointer: '/a', message: 'must be 1' },
    { pointer: '/b', message: 'must be 2' },
  ]);
});

test('an enum or a const beside a type mismatch at the same place says it all; elsewhere the type mismatch stays', () => {
  assert.deepEqual(problems({ type: 'object', properties: { x: { enum: [1, 2], type: 'integer' } } }, { x: 'a' }), [
    { pointer: '/x', message: 'must be one of 1, 2' },
  ]);
  assert.deepEqual(problems({ type: 'object', properties: { x: { const: 'a', type: 'string' } } }, { x: 5 }), [
    { pointer: '/x', message: 'must be "a"' },
  ]);
  assert.deepEqual(
    problems({ type: 'object', properties: { x: { const: 'a' }, y: { type: 'string' } } }, { x: 5, y: 5 }),
    [
      { pointer: '/x', message: 'must be "a"' },
      { pointer: '/y', message: 'must be string' },
    ],
  );
});

test('an error with errors under it that is no anyOf or oneOf is not folded', () => {
  assert.deepEqual(problems({ type: 'object', propertyNames: { pattern: '^a' } }, { b: 1 }), [
    { pointer: '/', message: 'must match pattern "^a"' },
    { pointer: '/', message: 'property name must be valid' },
  ]);
});

test('a discriminated union of more than ten branches names each value once', () => {
  const eleven = {
    oneOf: Array.from({ length: 11 }, (_, n) => ({ type: 'object', properties: { v: { const: n } }, required: ['v'] })),
  };
  assert.deepEqual(problems(eleven, { v: 11 }), [
    { pointer: '/v', message: 'must be one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10' },
  ]);
});

test("each keyword's message", () => {
  assert.deepEqual(
    problems(
      { type: 'object', properties: { x: { type: ['string', 'null'] } }, required: ['y'], additionalProperties: false },
      { x: 5, z: 1 },
    ),
    [
      { pointer: '/', message: 'must have required property "y"' },
      { pointer: '/', message: 'must NOT have additional property "z"' },
      { pointer: '/x', message: 'must be string or null' },
    ],
  );
  assert.deepEqual(
    problems({ type: 'object', properties: { x: { minimum: 3 }, e: { enum: ['a', null] } } }, { x: 1, e: 'b' }),
    [
      { pointer: '/x', message: 'must be >= 3' },
      { pointer: '/e', message: 'must be one of "a", null' },
    ],
  );
  assert.deepEqual(problemsOf([error('madeUp', '/q', '#/madeUp')]), [{ pointer: '/q', message: 'fails madeUp' }]);
  assert.deepEqual(problemsOf([error('type', '', '#/type', { type: 'integer' })]), [
    { pointer: '/', message: 'must be integer' },
  ]);
  assert.deepEqual(problemsOf([error('type', '', '#/type', { type: ['a', 'b', 'c', 'd'] })]), [
    { pointer: '/', message: 'must be a, b, c or d' },
  ]);
});
