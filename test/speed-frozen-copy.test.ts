/**
 * `deepFrozen` (the frozen copy `compile` makes of every schema) copies plain JSON in one pass:
 * it must answer exactly what `JSON.parse(JSON.stringify(schema))` answers, frozen at every
 * level and sharing nothing with its input. Runs in a few milliseconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepFrozen } from '../src/compiler/compile/info.js';
import type { JsonObject } from '../src/index.js';

function assertFrozenEverywhere(value: unknown, path = '$'): void {
  if (typeof value !== 'object' || value === null) return;
  assert.ok(Object.isFrozen(value), `${path} is frozen`);
  for (const [key, child] of Object.entries(value)) assertFrozenEverywhere(child, `${path}.${key}`);
}

function sharedObjects(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (a === b) return true;
  return Object.keys(a).some((key) => sharedObjects((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

test('a plain schema is copied as the JSON round trip copies it, frozen, sharing nothing', () => {
  const proto = JSON.parse('{"__proto__": {"type": "string"}}') as JsonObject;
  const schema = {
    type: 'object',
    properties: { text: { type: 'string', maxLength: 10, examples: ['a', 'b'] }, n: { anyOf: [{ type: 'integer', minimum: -1.5 }, { type: 'null' }] }, weird: proto },
    required: ['text'],
    additionalProperties: false,
    default: { nested: [[1, [2, { deep: true }]], null] },
  } as JsonObject;
  const copy = deepFrozen(schema);
  assert.deepEqual(copy, JSON.parse(JSON.stringify(schema)));
  assert.deepEqual(Object.keys((copy.properties as JsonObject).weird as object), ['__proto__']);
  assert.equal(Object.getPrototypeOf((copy.properties as JsonObject).weird), Object.prototype);
  assertFrozenEverywhere(copy);
  assert.equal(sharedObjects(copy, schema), false);
  assert.equal(Object.isFrozen(schema), false);
});

test('what is not plain JSON comes out as the JSON round trip makes it', () => {
  const when = new Date(Date.UTC(2026, 0, 2));
  const cases: JsonObject[] = [
    { a: undefined, b: 1 } as unknown as JsonObject,
    { n: Number.NaN, m: Infinity, list: [undefined, () => 1] } as unknown as JsonObject,
    { when } as unknown as JsonObject,
    { custom: { toJSON: () => 'custom' } } as unknown as JsonObject,
    { instance: new (class Point { x = 1; })() } as unknown as JsonObject,
  ];
  for (const schema of cases) {
    const copy = deepFrozen(schema);
    assert.deepEqual(copy, JSON.parse(JSON.stringify(schema)), JSON.stringify(schema));
    assertFrozenEverywhere(copy);
  }
  let deep: JsonObject = { type: 'string' };
  for (let level = 0; level < 200; level++) deep = { items: deep };
  const copy = deepFrozen(deep);
  assert.deepEqual(copy, JSON.parse(JSON.stringify(deep)));
  assertFrozenEverywhere(copy);
});
