import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { DEFAULT_FORMATS, isPlainSchema } from '../src/compiler/validation/plain-schema.js';
import { defaultValidator } from '../src/compiler/validation/validator.js';

// Imports stop at the module tested (never the package root): each mutant runs this file in a
// fresh process, so it loads only what it tests.

/*
 * `isPlainSchema` keyword by keyword, as mutation testing (`npm run mutate:validation`) found it
 * pinned only by a few whole schemas: every keyword it knows with a value it vouches for and a
 * value it refuses, the subschema walks, the depth bound at each kind of subschema, and the
 * default list of formats. See docs/mutation.md. Runs in well under a second.
 */

const anyFormat = (): boolean => true;

/** Every keyword isPlainSchema knows, with a value it accepts and values it refuses. */
const KEYWORDS: readonly (readonly [keyword: string, accepted: readonly unknown[], refused: readonly unknown[]])[] = [
  [
    'type',
    ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null', ['string', 'null']],
    ['strng', 5, [], ['string', 'string'], ['strng'], ['string', 'strng'], [5], ['string', 5], 'String', null, {}],
  ],
  ['required', [[], ['a', 'b']], ['a', ['a', 'a'], [1], null]],
  ['const', [null, 0, 'x', {}], []],
  ['default', [null, [], {}], []],
  ['examples', [[], [1]], ['x', {}, null]],
  ...[
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minContains',
    'maxContains',
    'minProperties',
    'maxProperties',
  ].map((keyword) => [keyword, [0, 3], [-1, 1.5, '1', Number.POSITIVE_INFINITY, null]] as const),
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map(
    (keyword) => [keyword, [0, -1.5, 3], ['1', Number.POSITIVE_INFINITY, Number.NaN, null, true]] as const,
  ),
  ['multipleOf', [0.5, 3], [0, -1, '2', Number.POSITIVE_INFINITY, null]],
  ...['uniqueItems', 'deprecated', 'readOnly', 'writeOnly'].map(
    (keyword) => [keyword, [true, false], ['yes', 0, null]] as const,
  ),
  ...['title', 'description', '$comment', 'contentEncoding', 'contentMediaType'].map(
    (keyword) => [keyword, ['', 'x'], [5, null, ['x']]] as const,
  ),
  ['dependentRequired', [{}, { a: ['b', 'c'] }], [[], { a: ['b', 'b'] }, { a: 'b' }, 'x', null]],
  ['enum', [[1], [null, 'a']], [[], 'a', {}, null]],
  ['pattern', ['^a+$', ''], [5, '\\_', '(', null]],
  ['format', ['uri', 'email', 'date-time'], [5, 'no-such-format', null]],
  ...['items', 'additionalProperties', 'not', 'contains', 'propertyNames'].map(
    (keyword) =>
      [keyword, [true, false, {}, { type: 'string' }], [{ madeUp: 1 }, { type: 'strng' }, null, 5, []]] as const,
  ),
  ...['anyOf', 'oneOf', 'allOf', 'prefixItems'].map(
    (keyword) =>
      [
        keyword,
        [[true], [{ type: 'string' }, { minimum: 1 }]],
        [[], [{ madeUp: 1 }], [{}, { type: 'strng' }], {}, null, [null]],
      ] as const,
  ),
  ['properties', [{}, { a: true, '\\_': { type: 'string' } }], [[], { a: { madeUp: 1 } }, { a: null }, null]],
  [
    'patternProperties',
    [{}, { '^x-': { type: 'string' } }],
    [[], { '\\_': true }, { '(': true }, { '^x-': { madeUp: 1 } }, null],
  ],
];

test('isPlainSchema: each keyword it knows, with values it vouches for and values it refuses', () => {
  for (const [keyword, accepted, refused] of KEYWORDS) {
    for (const value of accepted)
      assert.equal(isPlainSchema({ [keyword]: value }), true, `${keyword}: ${JSON.stringify(value)}`);
    for (const value of refused)
      assert.equal(isPlainSchema({ [keyword]: value }), false, `${keyword}: ${JSON.stringify(value)}`);
  }
});

test('isPlainSchema: the keywords of other vocabularies, and unknown ones, are not plain', () => {
  for (const keyword of [
    '$ref',
    '$id',
    '$defs',
    '$schema',
    '$anchor',
    '$dynamicRef',
    '$dynamicAnchor',
    'if',
    'then',
    'else',
    'dependentSchemas',
    'unevaluatedProperties',
    'unevaluatedItems',
    'nullable',
    'discriminator',
    'madeUp',
    '',
  ]) {
    assert.equal(isPlainSchema({ [keyword]: {} }), false, keyword);
  }
});

test('isPlainSchema: a boolean schema is plain, anything but an object or a boolean is not', () => {
  for (const schema of [true, false]) assert.equal(isPlainSchema(schema), true);
  for (const schema of [null, undefined, 0, 'x', [], [{}]])
    assert.equal(isPlainSchema(schema), false, JSON.stringify(schema));
  assert.equal(isPlainSchema({}), true);
});

test('isPlainSchema: formats are checked with the function given, or the default formats', () => {
  assert.equal(isPlainSchema({ format: 'made-up' }, anyFormat), true);
  assert.equal(isPlainSchema({ format: 5 }, anyFormat), false);
  const asked: string[] = [];
  assert.equal(
    isPlainSchema({ properties: { a: { format: 'uri' } } }, (name) => {
      asked.push(name);
      return false;
    }),
    false,
  );
  assert.deepEqual(asked, ['uri']);
  const validatorFormats = Object.keys((defaultValidator() as Ajv2020).formats);
  assert.deepEqual([...DEFAULT_FORMATS].sort(), [...validatorFormats].sort());
  for (const name of validatorFormats) assert.equal(isPlainSchema({ format: name }), true, name);
});

test('isPlainSchema: the first keyword refused decides, wherever it is among the others', () => {
  assert.equal(isPlainSchema({ type: 'string', minLength: 1, madeUp: 1 }), false);
  assert.equal(isPlainSchema({ madeUp: 1, type: 'string' }), false);
  assert.equal(isPlainSchema({ type: 'object', properties: { a: { type: 'string' }, b: { madeUp: 1 } } }), false);
  assert.equal(isPlainSchema({ patternProperties: { '^a': true, '\\_': true } }), false);
  assert.equal(isPlainSchema({ anyOf: [{ type: 'string' }, { madeUp: 1 }] }), false);
  assert.equal(
    isPlainSchema({ enum: [1], pattern: '^a', format: 'uri', minLength: 1, items: {}, anyOf: [{}], properties: {} }),
    true,
  );
});

test('isPlainSchema: the walk goes maxDepth levels deep through every kind of subschema, and no deeper', () => {
  const nests: readonly ((inner: unknown) => object)[] = [
    (inner) => ({ items: inner }),
    (inner) => ({ not: inner }),
    (inner) => ({ anyOf: [inner] }),
    (inner) => ({ prefixItems: [true, inner] }),
    (inner) => ({ properties: { a: inner } }),
    (inner) => ({ patternProperties: { '^a': inner } }),
  ];
  for (const [index, nest] of nests.entries()) {
    assert.equal(isPlainSchema(nest({}), anyFormat, 2), true, `nest ${index} within 2`);
    assert.equal(isPlainSchema(nest(nest({})), anyFormat, 2), false, `nest ${index} past 2`);
    assert.equal(isPlainSchema(nest(true), anyFormat, 1), true, `nest ${index}: a boolean schema at the bottom`);
  }
  assert.equal(isPlainSchema({}, anyFormat, 1), true);
  assert.equal(isPlainSchema({}, anyFormat, 0), false);
  assert.equal(isPlainSchema(true, anyFormat, 0), true);
  let deep: object = {};
  for (let level = 1; level < 64; level++) deep = { items: deep };
  assert.equal(isPlainSchema(deep), true, '64 levels by default');
  assert.equal(isPlainSchema({ items: deep }), false, '65 levels');
});
