/**
 * Validators compiled on first use (issue 7, speed): `compile()` no longer compiles every tool's
 * ajv validator up front, yet a schema ajv cannot compile still fails at once with ajv's own
 * error, and a first call validates exactly as an eagerly compiled validator does. Runs in about
 * a second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Tool, compile } from '../src/index.js';
import {
  compileSchema,
  compileWhenFirstUsed,
  createValidator,
  defaultValidator,
} from '../src/compiler/validation/validator.js';
import { DEFAULT_FORMATS, isPlainSchema } from '../src/compiler/validation/plain-schema.js';
import { contextFor, invalidMessage } from './support/compile-helpers.js';
import { callsDuring, compilesDuring } from './support/validation-helpers.js';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SOURCE_ROOT = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * A child that compiles and serves (over in-memory streams) a plain tool, then calls it, reporting
 * whether ajv was loaded at each step.
 */
const NO_AJV_SCRIPT = `
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
const require = createRequire(import.meta.url);
const { IsString } = await import('class-validator');
const tw = await import(${JSON.stringify(`${SOURCE_ROOT}index.js`)});
const ajvFiles = () => Object.keys(require('module')._cache).filter((file) => file.includes('/node_modules/ajv')).length;
class Args {}
IsString()(Args.prototype, 'text');
class Echo { execute(args) { return args.text; } }
tw.Tool({ description: 'Echoes', args: Args })(Echo);
const [tool] = tw.compile([Echo]);
console.log('after compile: ' + ajvFiles() + ' ajv files');
await tw.serveStdio({ name: 'x', version: '1' }, [tool], { stdin: new PassThrough(), stdout: new PassThrough() });
console.log('after serve: ' + ajvFiles() + ' ajv files');
await tool.execute({ text: 'hi' }, { call: { id: '1', tool: tool.name, args: {} }, signal: new AbortController().signal });
console.log('after a call: ' + (ajvFiles() > 0 ? 'ajv loaded' : 'no ajv'));
process.exit(0);
`;

/** A child that compiles and serves a hand-built tool, reporting which of the validation packages it loaded. */
const HAND_BUILT_SCRIPT = `
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
const require = createRequire(import.meta.url);
const tw = await import(${JSON.stringify(`${SOURCE_ROOT}index.js`)});
const loaded = () => ['class-validator', 'class-transformer', 'ajv'].filter((name) => Object.keys(require('module')._cache).some((file) => file.includes('/node_modules/' + name + '/'))).join(',') || 'none';
const [tool] = tw.compile([{ name: 'echo', description: 'Echoes', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: (args) => args.text }]);
await tw.serveStdio({ name: 'x', version: '1' }, [tool], { stdin: new PassThrough(), stdout: new PassThrough() });
console.log('hand-built, served: ' + loaded());
process.exit(0);
`;

function runNode(args: readonly string[]): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout, stderr) =>
      error === null ? resolve({ stdout }) : reject(new Error(`${error.message}\n${stderr}`)),
    );
  });
}

/** What ajv itself says when compiling `schema` with toolwright's default settings. */
function ajvError(schema: object): string {
  try {
    createValidator().compile(schema);
  } catch (error) {
    return (error as Error).message;
  }
  return 'compiled';
}

const known = (name: string): boolean => DEFAULT_FORMATS.has(name);

test('compile() leaves a plain arguments schema uncompiled until the first call, which validates as before', async () => {
  class Args {
    @IsString() text!: string;
    @IsOptional() @IsInt() @Min(1) @Max(5) count?: number;
  }
  @Tool({ description: 'Echoes', args: Args })
  class Echo {
    execute(args: Args) {
      return `${args.text} x${args.count ?? 1}`;
    }
  }
  let tool!: ReturnType<typeof compile>[number];
  assert.equal(await compilesDuring(() => void ([tool] = compile([Echo]))), 0);
  const ctx = contextFor(tool.name);
  assert.equal(
    await compilesDuring(async () =>
      assert.equal(
        await invalidMessage(tool.execute({ text: 5, count: 0, extra: 1 }, ctx)),
        'invalid arguments: /: must NOT have additional property "extra"; /text: must be string; /count: must be >= 1',
      ),
    ),
    1,
  );
  assert.equal(
    await compilesDuring(async () => assert.equal(await tool.execute({ text: 'hi', count: 2 }, ctx), 'hi x2')),
    0,
  );
  assert.equal(
    await invalidMessage(tool.execute({ count: 9 }, ctx)),
    'invalid arguments: /: must have required property "text"; /count: must be <= 5',
  );
});

test('a schema with $defs (a recursive DTO) is compiled by compile() itself', async () => {
  class Node {
    @IsString() name!: string;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Node) children?: Node[];
  }
  @Tool({ description: 'Walks a tree', args: Node })
  class Walk {
    execute(args: Node) {
      return args.name;
    }
  }
  let tool!: ReturnType<typeof compile>[number];
  assert.equal(await compilesDuring(() => void ([tool] = compile([Walk]))), 1);
  assert.ok(JSON.stringify(tool.parameters).includes('"$ref"'));
  assert.equal(
    await invalidMessage(tool.execute({ name: 'a', children: [{ name: 1 }] }, contextFor(tool.name))),
    'invalid arguments: /children/0/name: must be string',
  );
});

test("compileWhenFirstUsed throws at once, with ajv's own message, for every schema ajv cannot compile", () => {
  const invalid: object[] = [
    { type: 'object', properties: { a: { type: 'strng' } } },
    { type: 'object', properties: { a: { enum: [] } } },
    { type: 'object', properties: { a: { type: 'string', pattern: '[a-z\\_]' } } },
    { type: 'object', patternProperties: { '\\_x': { type: 'string' } } },
    { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
    { type: 'object', properties: { a: { type: 'string', minLength: -1 } } },
    { type: 'object', properties: { a: { id: 'x', type: 'string' } } },
    { type: 'object', properties: { a: { anyOf: [] } } },
    { type: 'object', required: ['a', 'a'] },
    { type: 'object', properties: { a: { type: 'number', multipleOf: 0 } } },
    { type: [] },
    { type: 'object', properties: { a: { type: 'string', maxLength: 1.5 } } },
  ];
  for (const schema of invalid) {
    const expected = ajvError(schema);
    assert.notEqual(expected, 'compiled', JSON.stringify(schema));
    assert.throws(() => compileWhenFirstUsed(schema), { message: expected }, JSON.stringify(schema));
    assert.throws(() => compileSchema(schema), { message: expected }, JSON.stringify(schema));
  }
});

test('compileWhenFirstUsed compiles a schema of a validator you gave at once, and defers only what it can vouch for', async () => {
  const mine = new Ajv2020({ strict: false });
  mine.addKeyword({
    keyword: 'even',
    compile: (value: unknown) => {
      if (value !== true) throw new Error('even must be true');
      return (data: unknown) => typeof data === 'number' && data % 2 === 0;
    },
  });
  assert.throws(() => compileWhenFirstUsed({ type: 'number', even: false }, mine), { message: 'even must be true' });
  const even = compileWhenFirstUsed({ type: 'number', even: true }, mine);
  assert.equal(even(2), true);
  assert.equal(even(3), false);
  const plain = {
    type: 'object',
    properties: {
      n: { type: 'integer', minimum: 1 },
      tags: { type: 'array', items: { type: 'string', format: 'email' } },
    },
    required: ['n'],
    additionalProperties: false,
  };
  let check!: ReturnType<typeof compileWhenFirstUsed>;
  assert.equal(await compilesDuring(() => void (check = compileWhenFirstUsed(plain))), 0);
  assert.equal(check.errors, null);
  assert.equal(await compilesDuring(() => assert.equal(check({ n: 0, tags: ['x'] }), false)), 1);
  assert.deepEqual(
    (check.errors ?? []).map(
      (error: { instancePath: string; message?: string }) => `${error.instancePath} ${error.message}`,
    ),
    ['/n must be >= 1', '/tags/0 must match format "email"'],
  );
  assert.equal(check({ n: 1, tags: ['a@b.co'] }), true);
  assert.equal(check.errors, null);
  assert.equal(
    await compilesDuring(() =>
      compileWhenFirstUsed({ type: 'object', properties: { a: { type: 'string', format: 'no-such-format' } } }),
    ),
    1,
  );
});

test('isPlainSchema vouches only for keywords whose compile cannot fail once the meta-schema accepted them', () => {
  const plain: unknown[] = [
    true,
    {
      type: 'object',
      properties: { a: { type: 'string', maxLength: 3, pattern: '^[a-z]+$', format: 'uri' } },
      required: ['a'],
      additionalProperties: false,
    },
    {
      type: 'array',
      items: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
      prefixItems: [{ const: 1 }],
      uniqueItems: true,
    },
    {
      type: 'object',
      patternProperties: { '^x-': { type: 'string' } },
      propertyNames: { maxLength: 9 },
      not: { required: ['b'] },
      description: 'd',
      title: 't',
      default: {},
      examples: [{}],
    },
    { enum: [1, 'a'], allOf: [{ oneOf: [{ type: 'number' }, false] }] },
  ];
  for (const schema of plain) assert.equal(isPlainSchema(schema, known), true, JSON.stringify(schema));
  const notPlain: unknown[] = [
    null,
    [],
    { $ref: '#' },
    { $defs: {} },
    { $id: 'urn:x' },
    { $schema: 'https://json-schema.org/draft/2020-12/schema' },
    { $anchor: 'a' },
    { $dynamicRef: '#a' },
    { type: 'string', nullable: true },
    { discriminator: { propertyName: 'k' } },
    { if: { type: 'string' }, then: { minLength: 1 } },
    { unevaluatedProperties: false },
    { enum: [] },
    { enum: 'a' },
    { pattern: '\\_' },
    { patternProperties: { '\\_': true } },
    { format: 'no-such-format' },
    { properties: { a: { items: { madeUp: 1 } } } },
    { anyOf: 'x' },
    { anyOf: [] },
    { properties: [] },
    { type: 'strng' },
    { type: ['string', 'string'] },
    { required: ['a', 'a'] },
    { required: [1] },
    { minLength: -1 },
    { maxItems: 1.5 },
    { minimum: '1' },
    { multipleOf: 0 },
    { uniqueItems: 'yes' },
    { description: 5 },
    { examples: 'x' },
    { dependentRequired: { a: ['b', 'b'] } },
  ];
  for (const schema of notPlain) assert.equal(isPlainSchema(schema, known), false, JSON.stringify(schema));
  let deep: object = { type: 'string' };
  for (let level = 0; level < 70; level++) deep = { items: deep };
  assert.equal(isPlainSchema(deep, known), false);
});

test("the formats isPlainSchema knows are exactly the default validator's", () => {
  assert.deepEqual([...DEFAULT_FORMATS].sort(), Object.keys((defaultValidator() as Ajv2020).formats).sort());
});

test('importing toolwright, compiling and serving plain tools loads no ajv until a call validates', async () => {
  const { stdout } = await runNode(['--input-type=module', '-e', NO_AJV_SCRIPT]);
  assert.deepEqual(stdout.trim().split('\n'), [
    'after compile: 0 ajv files',
    'after serve: 0 ajv files',
    'after a call: ajv loaded',
  ]);
});

test('importing toolwright, compiling and serving a hand-built tool loads no class-validator, class-transformer or ajv', async () => {
  const { stdout } = await runNode(['--input-type=module', '-e', HAND_BUILT_SCRIPT]);
  assert.equal(stdout.trim(), 'hand-built, served: none');
});

test('a hand-built tool with a schema ajv cannot compile still fails compile() and serveStdio at once', async () => {
  const { ContractError, serveStdio } = await import('../src/index.js');
  const bad = {
    name: 'bad',
    description: 'Bad',
    parameters: { type: 'object', properties: { a: { enum: [] } } },
    execute: async () => 'x',
  };
  assert.throws(
    () => compile([bad]),
    (error: unknown) =>
      error instanceof ContractError &&
      error.message.includes('"parameters" is not a valid JSON Schema 2020-12 (enum must have non-empty array)'),
  );
  const { PassThrough } = await import('node:stream');
  await assert.rejects(
    serveStdio({ name: 'x', version: '1' }, [bad], { stdin: new PassThrough(), stdout: new PassThrough() }),
    { message: /enum must have non-empty array/ },
  );
});

test("a vouched schema's first check compiles it without the meta-schema check, which only an unvouched schema gets", async () => {
  const check = compileWhenFirstUsed({
    type: 'object',
    properties: { n: { type: ['integer', 'null'], minimum: 1 }, s: { type: 'string', maxLength: 3 } },
    required: ['n'],
    additionalProperties: false,
  });
  assert.equal(await callsDuring('validateSchema', () => assert.equal(check({ n: 0, s: 'long', x: 1 }), false)), 0);
  assert.deepEqual(
    check.errors!.map((e) => `${e.instancePath} ${e.message}`),
    [' must NOT have additional properties', '/n must be >= 1', '/s must NOT have more than 3 characters'],
  );
  assert.equal(check({ n: null }), true);
  // A schema isPlainSchema cannot vouch for (a $ref) is compiled at once, and checked first.
  assert.equal(
    await callsDuring('validateSchema', () =>
      compileWhenFirstUsed({
        $defs: { n: { type: 'integer' } },
        type: 'object',
        properties: { n: { $ref: '#/$defs/n' } },
      }),
    ),
    1,
  );
  assert.equal(defaultValidator().constructor.name, 'Ajv2020');
  assert.equal((defaultValidator() as Ajv2020).opts.validateSchema, true);
});
