/**
 * `deepFrozen` (the frozen copy of a schema) copies plain JSON in one pass: it must answer
 * exactly what `JSON.parse(JSON.stringify(schema))` answers, frozen at every level and sharing
 * nothing with its input. `frozenInPlace` (how `compile` freezes the schemas it generated)
 * answers the same, but freezes a plain schema itself instead of a copy. Runs in a few
 * milliseconds.
 */
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { deepFrozen, frozenInPlace } from '../src/compiler/compile/info.js';
import { compile, Tool, type JsonObject } from '../src/index.js';
import { generateSchema } from '../src/compiler/index.js';

function assertFrozenEverywhere(value: unknown, path = '$'): void {
  if (typeof value !== 'object' || value === null) return;
  assert.ok(Object.isFrozen(value), `${path} is frozen`);
  for (const [key, child] of Object.entries(value)) assertFrozenEverywhere(child, `${path}.${key}`);
}

function sharedObjects(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (a === b) return true;
  return Object.keys(a).some((key) =>
    sharedObjects((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

test('a plain schema is copied as the JSON round trip copies it, frozen, sharing nothing', () => {
  const proto = JSON.parse('{"__proto__": {"type": "string"}}') as JsonObject;
  const schema = {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: 10, examples: ['a', 'b'] },
      n: { anyOf: [{ type: 'integer', minimum: -1.5 }, { type: 'null' }] },
      weird: proto,
    },
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

test('what is not plain JSON comes out as the JSON round trip makes it, a copy from either function', () => {
  for (const freeze of [deepFrozen, frozenInPlace]) {
    const when = new Date(Date.UTC(2026, 0, 2));
    const cases: JsonObject[] = [
      { a: undefined, b: 1 } as unknown as JsonObject,
      { a: { b: 1 }, n: Number.NaN, m: Infinity, list: [undefined, () => 1] } as unknown as JsonObject,
      { when } as unknown as JsonObject,
      { custom: { toJSON: () => 'custom' } } as unknown as JsonObject,
      {
        instance: new (class Point {
          x = 1;
        })(),
      } as unknown as JsonObject,
    ];
    for (const schema of cases) {
      const expected = JSON.parse(JSON.stringify(schema)) as JsonObject;
      const copy = freeze(schema);
      assert.notEqual(copy, schema);
      assert.deepEqual(copy, expected, `${freeze.name}: ${JSON.stringify(schema)}`);
      assertFrozenEverywhere(copy);
    }
    let deep: JsonObject = { type: 'string' };
    for (let level = 0; level < 200; level++) deep = { items: deep };
    const copy = freeze(deep);
    assert.deepEqual(copy, JSON.parse(JSON.stringify(deep)));
    assertFrozenEverywhere(copy);
  }
});

test('frozenInPlace freezes a plain schema itself and answers it', () => {
  const proto = JSON.parse('{"__proto__": {"type": "string"}}') as JsonObject;
  const schema = {
    type: 'object',
    properties: {
      text: { type: 'string', examples: ['a'] },
      n: { anyOf: [{ type: 'integer', minimum: -1.5 }, { type: 'null' }] },
      weird: proto,
    },
    required: ['text'],
    additionalProperties: false,
    default: { nested: [[1, [2, { deep: true }]], null] },
  } as JsonObject;
  const expected = JSON.parse(JSON.stringify(schema)) as JsonObject;
  assert.equal(frozenInPlace(schema), schema);
  assert.deepEqual(schema, expected);
  assert.deepEqual(Object.keys((schema.properties as JsonObject).weird as object), ['__proto__']);
  assertFrozenEverywhere(schema);
});

test('compile lists the generated schema itself, frozen, a default of a class nested twice included', () => {
  class Point {
    @IsOptional() @IsInt() x?: number = 1;
    @IsOptional() @IsObject() origin?: object = { at: [0, 0] };
  }
  class Args {
    @ValidateNested() @Type(() => Point) from!: Point;
    @ValidateNested() @Type(() => Point) to!: Point;
    @IsString() label!: string;
  }
  @Tool({ name: 'line', description: 'Draws a line', args: Args })
  class Line {
    execute(): string {
      return '';
    }
  }
  const [tool] = compile([Line]);
  const point = {
    type: 'object',
    properties: {
      x: { type: ['integer', 'null'], default: 1 },
      origin: { type: ['object', 'null'], default: { at: [0, 0] } },
    },
    additionalProperties: false,
  };
  assert.deepEqual(tool!.parameters, {
    type: 'object',
    properties: { from: point, to: point, label: { type: 'string' } },
    required: ['from', 'to', 'label'],
    additionalProperties: false,
  });
  assert.deepEqual(tool!.parameters, generateSchema(Args).schema);
  assertFrozenEverywhere(tool!.parameters);
});
