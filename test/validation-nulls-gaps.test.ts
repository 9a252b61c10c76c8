import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropOptionalNulls, nullPlanOf } from '../src/compiler/validation/nulls.js';
import { createArgumentsPipeline } from '../src/compiler/index.js';
import type { JsonObject } from '../src/index.js';

/*
 * The null plan's corners that mutation testing found unpinned: a required property that admits
 * `null` keeps it, a recursive schema with nothing to drop still terminates (the cycle guard),
 * and optional nullable properties declared inside `allOf` and `oneOf` branches are dropped.
 */

test('a required property that admits null keeps its null; an optional one beside it loses it', async () => {
  const schema = {
    type: 'object',
    properties: { kept: { type: ['string', 'null'] }, dropped: { type: ['string', 'null'] } },
    required: ['kept'],
    additionalProperties: false,
  };
  const plan = nullPlanOf(schema)!;
  assert.deepEqual([...plan.droppable], ['dropped']);
  assert.deepEqual(dropOptionalNulls({ kept: null, dropped: null }, plan), { kept: null });
  assert.equal(
    nullPlanOf({ type: 'object', properties: { kept: { type: ['string', 'null'] } }, required: ['kept'] }),
    undefined,
  );
  const pipeline = createArgumentsPipeline({ schema });
  assert.deepEqual(await pipeline.parse({ kept: null, dropped: null }), { kept: null });
});

test('a recursive schema with no optional nullable property has no plan (and building it terminates)', () => {
  const schema = {
    $ref: '#/$defs/Node',
    $defs: {
      Node: {
        type: 'object',
        properties: {
          value: { type: 'string' },
          next: { $ref: '#/$defs/Node' },
          children: { type: 'array', items: { $ref: '#/$defs/Node' } },
        },
        required: ['value'],
      },
    },
  };
  assert.equal(nullPlanOf(schema), undefined);
});

test('a recursive schema with an optional nullable property drops it at every depth', () => {
  const schema = {
    $ref: '#/$defs/Node',
    $defs: {
      Node: { type: 'object', properties: { note: { type: ['string', 'null'] }, next: { $ref: '#/$defs/Node' } } },
    },
  };
  const plan = nullPlanOf(schema)!;
  assert.deepEqual(dropOptionalNulls({ note: null, next: { note: null, next: { note: 'x' } } }, plan), {
    next: { next: { note: 'x' } },
  });
});

test('optional nullable properties inside allOf and oneOf branches are dropped', () => {
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const schema: JsonObject = {
      type: 'object',
      [key]: [{ properties: { a: { type: ['string', 'null'] } } }, { properties: { b: { type: 'integer' } } }],
    };
    const plan = nullPlanOf(schema)!;
    assert.deepEqual([key, [...plan.droppable]], [key, ['a']]);
    const input = { a: null, b: 1 };
    assert.deepEqual(dropOptionalNulls(input, plan), { b: 1 });
    assert.deepEqual(input, { a: null, b: 1 }, 'the input is never changed');
  }
});

test('a nullable item schema drops nulls of optional properties inside array items, and leaves null items alone', () => {
  const schema = {
    type: 'object',
    properties: {
      list: {
        type: 'array',
        items: { type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
      },
    },
  };
  const plan = nullPlanOf(schema)!;
  assert.deepEqual(dropOptionalNulls({ list: [{ x: null }, { x: 'y' }, null] }, plan), {
    list: [{}, { x: 'y' }, null],
  });
});
