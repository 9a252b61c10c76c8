/**
 * `frozenInPlace` (how `compile` freezes the schemas it generated) answers what `deepFrozen`
 * answers, `JSON.parse(JSON.stringify(schema))` frozen at every level, but without a copy when
 * the schema is plain JSON. Runs in a few milliseconds.
 */
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { compile, Tool, type JsonObject } from '../src/index.js';
import { generateSchema } from '../src/compiler/index.js';
import { frozenInPlace } from '../src/compiler/compile/info.js';

function assertFrozenEverywhere(value: unknown, path = '$'): void {
  if (typeof value !== 'object' || value === null) return;
  assert.ok(Object.isFrozen(value), `${path} is frozen`);
  for (const [key, child] of Object.entries(value)) assertFrozenEverywhere(child, `${path}.${key}`);
}

test('a plain schema is frozen in place and answered itself', () => {
  const proto = JSON.parse('{"__proto__": {"type": "string"}}') as JsonObject;
  const schema = {
    type: 'object',
    properties: { text: { type: 'string', examples: ['a'] }, n: { anyOf: [{ type: 'integer', minimum: -1.5 }, { type: 'null' }] }, weird: proto },
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

test('a schema that is not plain JSON is answered as the frozen JSON round trip', () => {
  const when = new Date(Date.UTC(2026, 0, 2));
  const cases: JsonObject[] = [
    { a: { b: 1 }, c: undefined } as unknown as JsonObject,
    { a: { b: 1 }, n: Number.NaN, list: [undefined, () => 1] } as unknown as JsonObject,
    { when } as unknown as JsonObject,
    { custom: { toJSON: () => 'custom' } } as unknown as JsonObject,
    { instance: new (class Point { x = 1; })() } as unknown as JsonObject,
  ];
  for (const schema of cases) {
    const expected = JSON.parse(JSON.stringify(schema)) as JsonObject;
    const answered = frozenInPlace(schema);
    assert.notEqual(answered, schema);
    assert.deepEqual(answered, expected, JSON.stringify(schema));
    assertFrozenEverywhere(answered);
  }
  let deep: JsonObject = { type: 'string' };
  for (let level = 0; level < 200; level++) deep = { items: deep };
  const answered = frozenInPlace(deep);
  assert.deepEqual(answered, JSON.parse(JSON.stringify(deep)));
  assertFrozenEverywhere(answered);
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
    properties: { x: { type: ['integer', 'null'], default: 1 }, origin: { type: ['object', 'null'], default: { at: [0, 0] } } },
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
