import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createArgumentsPipeline } from '../src/compiler/index.js';
import { type JsonObject } from '../src/index.js';
import { dropOptionalNulls, nullPlanOf } from '../src/compiler/validation/nulls.js';

/*
 * Null handling that mutation testing found unpinned (validation/nulls.ts): only an optional
 * property's `null` means "left out"; a required one keeps its `null`.
 */

const pipelineOf = (schema: JsonObject) => createArgumentsPipeline({ schema });

test('a required property that admits null keeps its null; an optional one drops it', async () => {
  const schema: JsonObject = {
    type: 'object',
    properties: { kept: { type: ['string', 'null'] }, dropped: { type: ['string', 'null'] } },
    required: ['kept'],
    additionalProperties: false,
  };
  assert.deepEqual(await pipelineOf(schema).parse({ kept: null, dropped: null }), { kept: null });
  assert.deepEqual(await pipelineOf(schema).parse({ kept: 'a', dropped: 'b' }), { kept: 'a', dropped: 'b' });
  assert.deepEqual([...nullPlanOf(schema)!.droppable], ['dropped']);
});

test('a recursive schema with nothing nullable has no null plan, and the walk ends', async () => {
  const schema: JsonObject = {
    type: 'object',
    properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Node' } },
    additionalProperties: false,
    $defs: {
      Node: {
        type: 'object',
        properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Node' } },
        additionalProperties: false,
      },
    },
  };
  assert.equal(nullPlanOf(schema), undefined);
  const value = { name: 'a', child: { name: 'b', child: { name: 'c' } } };
  assert.equal(
    await pipelineOf(schema).parse(value),
    value,
    'nothing to drop: the arguments are handed over as they are',
  );
});

test('a recursive schema with an optional nullable property drops it at every level', async () => {
  const node: JsonObject = {
    type: 'object',
    properties: { note: { type: ['string', 'null'] }, child: { $ref: '#/$defs/Node' } },
    additionalProperties: false,
  };
  const schema: JsonObject = { ...node, $defs: { Node: node } };
  assert.deepEqual(await pipelineOf(schema).parse({ note: null, child: { note: null, child: { note: 'deep' } } }), {
    child: { child: { note: 'deep' } },
  });
});

test('optional nulls inside allOf and oneOf branches are dropped, as inside anyOf', () => {
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const schema: JsonObject = {
      type: 'object',
      [key]: [
        { type: 'object', properties: { a: { type: ['integer', 'null'] }, b: { type: 'integer' } }, required: ['b'] },
      ],
    };
    const plan = nullPlanOf(schema);
    assert.notEqual(plan, undefined, key);
    assert.deepEqual(dropOptionalNulls({ a: null, b: 1 }, plan!), { b: 1 }, key);
  }
});

test('nulls in arrays of objects are dropped item by item, and the input is never changed', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { tag: { type: ['string', 'null'] } } } },
    },
  };
  const input = { items: [{ tag: null }, { tag: 'x' }] };
  assert.deepEqual(dropOptionalNulls(input, nullPlanOf(schema)!), { items: [{}, { tag: 'x' }] });
  assert.deepEqual(input, { items: [{ tag: null }, { tag: 'x' }] });
});
