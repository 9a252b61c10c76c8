/**
 * What `compile` leaves to a tool's first call: the arguments pipeline's null plan and DTO
 * builder are made once, by the first call that passes validation, when the schema's compile
 * is deferred too; with the compile when it is not. Counted through class-transformer's own
 * storage (`getStrategy` is read once per DTO class when its builder is planned). Runs in well
 * under a second.
 */
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { IsInt, IsOptional, IsString } from 'class-validator';
import type { JsonObject } from '../src/index.js';
import { createArgumentsPipeline } from '../src/compiler/validation/index.js';
import { createValidator } from '../src/compiler/validation/validator.js';

interface Storage {
  getStrategy(target: Function): unknown;
}
const storage = (
  createRequire(import.meta.url)('class-transformer/cjs/storage.js') as { defaultMetadataStorage: Storage }
).defaultMetadataStorage;

/** Counts the times class-transformer's storage is asked for `dto`'s strategy while `body` runs. */
async function plansDuring(dto: Function, body: () => unknown): Promise<number> {
  const original = storage.getStrategy;
  let count = 0;
  storage.getStrategy = function (this: Storage, target: Function) {
    if (target === dto) count++;
    return original.call(this, target);
  };
  try {
    await body();
  } finally {
    storage.getStrategy = original;
  }
  return count;
}

function argsClass(): new () => { text: string; count?: number } {
  class Args {
    @IsString() text!: string;
    @IsOptional() @IsInt() count?: number = 3;
  }
  return Args;
}

const PLAIN: JsonObject = {
  type: 'object',
  properties: { text: { type: 'string' }, count: { type: ['integer', 'null'] } },
  required: ['text'],
  additionalProperties: false,
};

test('a plain schema: nothing is planned until a call passes validation, then once for concurrent first calls', async () => {
  const Args = argsClass();
  let pipeline!: ReturnType<typeof createArgumentsPipeline>;
  assert.equal(await plansDuring(Args, () => (pipeline = createArgumentsPipeline({ schema: PLAIN, dto: Args }))), 0);
  assert.equal(
    await plansDuring(Args, () =>
      pipeline
        .parse({ text: 5 })
        .catch((err: Error) => assert.equal(err.message, 'invalid arguments: /text: must be string')),
    ),
    0,
  );
  let results: object[] = [];
  const planned = await plansDuring(Args, async () => {
    results = await Promise.all([
      pipeline.parse({ text: 'a', count: null }),
      pipeline.parse({ text: 'b', count: 7 }),
      pipeline.parse({ text: 'c', count: null }),
    ]);
    results.push(await pipeline.parse({ text: 'd', count: null }));
  });
  assert.equal(planned, 1);
  assert.deepEqual(
    results.map((dto) => [dto instanceof Args, { ...dto }]),
    [
      [true, { text: 'a', count: 3 }],
      [true, { text: 'b', count: 7 }],
      [true, { text: 'c', count: 3 }],
      [true, { text: 'd', count: 3 }],
    ],
  );
});

test('a schema compiled at once (not plain, or a validator given) is planned with its compile', async () => {
  const withRef: JsonObject = {
    type: 'object',
    properties: { text: { type: 'string' }, count: { $ref: '#/$defs/Count' } },
    required: ['text'],
    additionalProperties: false,
    $defs: { Count: { type: ['integer', 'null'] } },
  };
  for (const [schema, validator] of [
    [withRef, undefined],
    [PLAIN, createValidator()],
  ] as const) {
    const Args = argsClass();
    let pipeline!: ReturnType<typeof createArgumentsPipeline>;
    assert.equal(
      await plansDuring(Args, () => (pipeline = createArgumentsPipeline({ schema, dto: Args, validator }))),
      1,
    );
    let dto!: object;
    assert.equal(await plansDuring(Args, async () => (dto = await pipeline.parse({ text: 'a', count: null }))), 0);
    assert.deepEqual({ ...dto }, { text: 'a', count: 3 });
  }
});
