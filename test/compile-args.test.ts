import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsDate,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  Args,
  Description,
  Field,
  Tool,
  compile,
  defineDescription,
  defineField,
  type CallContext,
} from '../src/index.js';
import { inspectTool } from '../src/compiler/index.js';
import { contextFor, invalidMessage, issuesOf } from './support/compile-helpers.js';

test('args from @Tool({ args }) and from @Args() give the same schema and DTO', async () => {
  class EchoArgs {
    @Description('The text to echo')
    @IsString()
    @MaxLength(100)
    text!: string;

    @IsOptional()
    @IsInt()
    @Min(1)
    times?: number;
  }
  const seen: unknown[] = [];
  @Tool({ description: 'Echoes text', args: EchoArgs })
  class Echo {
    execute(args: EchoArgs) {
      seen.push(args);
      return args.text.repeat(args.times ?? 1);
    }
  }
  @Tool({ name: 'echo_inferred', description: 'Echoes text' })
  class EchoInferred {
    execute(@Args() args: EchoArgs, _ctx: CallContext) {
      seen.push(args);
      return args.text;
    }
  }
  const [explicit, inferred] = compile([Echo, EchoInferred]);
  const schema = {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: 100, description: 'The text to echo' },
      times: { type: ['integer', 'null'], minimum: 1 },
    },
    required: ['text'],
    additionalProperties: false,
  };
  assert.deepEqual(explicit!.parameters, schema);
  assert.deepEqual(inferred!.parameters, schema);
  assert.equal(inspectTool(inferred!).argsClass, 'EchoArgs');
  assert.equal(await explicit!.execute({ text: 'ab', times: 2 }, contextFor('echo')), 'abab');
  assert.equal(await explicit!.execute({ text: 'ab', times: null }, contextFor('echo')), 'ab');
  assert.equal(await inferred!.execute({ text: 'x' }, contextFor('echo_inferred')), 'x');
  assert.deepEqual(
    seen.map((dto) => [dto instanceof EchoArgs, { ...(dto as object) }]),
    [
      [true, { text: 'ab', times: 2 }],
      [true, { text: 'ab', times: undefined }],
      [true, { text: 'x', times: undefined }],
    ],
  );
  assert.equal((seen[1] as EchoArgs).times, undefined, 'a null optional reaches the tool as undefined');
});

test('bad inputs through a compiled tool get exact messages and never reach execute', async () => {
  class LimitArgs {
    @IsString() path!: string;
    @IsOptional() @IsInt() @Min(1) limit?: number;
  }
  let calls = 0;
  @Tool({ description: 'Reads', args: LimitArgs })
  class Reader {
    execute() {
      calls++;
      return 'read';
    }
  }
  const [tool] = compile([Reader]);
  const run = (raw: unknown) => invalidMessage(tool!.execute(raw, contextFor('reader', raw)));
  assert.equal(await run({ path: 'a', limit: 0 }), 'invalid arguments: /limit: must be >= 1');
  assert.equal(await run(null), 'invalid arguments: expected an object, got null');
  assert.equal(await run([{ path: 'a' }]), 'invalid arguments: expected an object, got an array');
  assert.equal(await run('{"path":"a"}'), 'invalid arguments: expected an object, got a string');
  assert.equal(await run(7), 'invalid arguments: expected an object, got a number');
  assert.equal(
    await run({ path: 'a', unknown: true }),
    'invalid arguments: /: must NOT have additional property "unknown"',
  );
  assert.equal(
    await run({ path: 5, limit: '5' }),
    'invalid arguments: /path: must be string; /limit: must be integer or null',
  );
  assert.equal(
    await run(JSON.parse('{"path":"a","__proto__":{"polluted":1}}')),
    'invalid arguments: /: must NOT have additional property "__proto__"',
  );
  assert.equal(
    await run(JSON.parse('{"__proto__":{"polluted":1}}')),
    'invalid arguments: /: must have required property "path"; /: must NOT have additional property "__proto__"',
  );
  assert.equal(
    await run(JSON.parse('{"path":"a","constructor":{"prototype":{"polluted":1}}}')),
    'invalid arguments: /: must NOT have additional property "constructor"',
  );
  assert.equal(
    await run(JSON.parse('{"path":"a","x":' + '['.repeat(5000) + ']'.repeat(5000) + '}')),
    'invalid arguments: nested deeper than 64 levels',
  );
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  assert.equal(await run({ path: 'a', x: deep }), 'invalid arguments: nested deeper than 64 levels');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(calls, 0);
  assert.equal(await tool!.execute({ path: 'a' }, contextFor('reader')), 'read');
});

test('maxDepth is a compile option', async () => {
  class Deep {
    @IsOptional() @IsArray() @IsInt({ each: true }) list?: number[];
  }
  @Tool({ description: 'Deep', args: Deep })
  class DeepTool {
    execute() {
      return 'ok';
    }
  }
  const [tool] = compile([DeepTool], { maxDepth: 1 });
  assert.equal(
    await invalidMessage(tool!.execute({ list: [1] }, contextFor('deep'))),
    'invalid arguments: nested deeper than 1 levels',
  );
  assert.equal(await tool!.execute({}, contextFor('deep')), 'ok');
  assert.equal(inspectTool(tool!).maxDepth, 1);
});

test('nested DTOs, arrays and enums arrive as instances; nested problems carry their pointer', async () => {
  enum Level {
    Low = 1,
    High = 2,
  }
  class Filter {
    @IsIn(['name', 'size']) by!: 'name' | 'size';
    @IsOptional() @IsString() note?: string;
  }
  class Query {
    @IsEnum(Level) level!: Level;
    @IsOptional() @ValidateNested() @Type(() => Filter) filter?: Filter;
    @IsArray() @ValidateNested({ each: true }) @Type(() => Filter) more!: Filter[];
  }
  let got: Query | undefined;
  @Tool({ description: 'Queries', args: Query })
  class QueryTool {
    execute(args: Query) {
      got = args;
      return 'ok';
    }
  }
  const [tool] = compile([QueryTool]);
  await tool!.execute({ level: 2, filter: { by: 'name', note: null }, more: [{ by: 'size' }] }, contextFor('query'));
  assert.ok(got instanceof Query);
  assert.ok(got.filter instanceof Filter);
  assert.ok(got.more[0] instanceof Filter);
  assert.equal(got.filter.note, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(got)), { level: 2, filter: { by: 'name' }, more: [{ by: 'size' }] });
  await tool!.execute({ level: 1, filter: null, more: [] }, contextFor('query'));
  assert.equal(got.filter, undefined);
  const run = (raw: unknown) => invalidMessage(tool!.execute(raw, contextFor('query')));
  assert.equal(await run({ level: 'Low', more: [] }), 'invalid arguments: /level: must be one of 1, 2');
  assert.equal(
    await run({ level: 1, filter: { by: 'date' }, more: [{ by: 'size', x: 1 }] }),
    'invalid arguments: /filter/by: must be one of "name", "size"; /more/0: must NOT have additional property "x"',
  );
  assert.equal(
    await run({ level: 1, filter: 'name', more: 'x' }),
    'invalid arguments: /filter: must be object or null; /more: must be array',
  );
});

test('a residual @Validate constraint runs after ajv, with its own message and pointer', async () => {
  @ValidatorConstraint({ name: 'isEvenPage' })
  class IsEvenPage implements ValidatorConstraintInterface {
    validate(value: unknown): boolean {
      return typeof value === 'number' && value % 2 === 0;
    }
    defaultMessage(): string {
      return 'page must be an even number';
    }
  }
  class Paging {
    @IsInt() @Min(0) @Validate(IsEvenPage) page!: number;
  }
  class Listing {
    @IsString() dir!: string;
    @ValidateNested() @Type(() => Paging) paging!: Paging;
  }
  @Tool({ description: 'Lists pages', args: Listing })
  class Pages {
    execute(args: Listing) {
      return `page ${args.paging.page}`;
    }
  }
  const [tool] = compile([Pages]);
  assert.deepEqual(inspectTool(tool!).residual, [{ className: 'Paging', property: 'page', constraint: 'isEvenPage' }]);
  assert.equal(await tool!.execute({ dir: '/', paging: { page: 2 } }, contextFor('pages')), 'page 2');
  assert.equal(
    await invalidMessage(tool!.execute({ dir: '/', paging: { page: 3 } }, contextFor('pages'))),
    'invalid arguments: /paging/page: page must be an even number',
  );
  assert.equal(
    await invalidMessage(tool!.execute({ dir: '/', paging: { page: -1 } }, contextFor('pages'))),
    'invalid arguments: /paging/page: must be >= 0',
  );
});

test('generator issues reach the ContractError with class, member and fix', () => {
  class Loose {
    @IsOptional() anything?: unknown;
    @IsArray() list!: unknown[];
    @IsString() @IsInt() both!: string;
  }
  @Tool({ description: 'Loose', args: Loose })
  class LooseTool {
    execute() {
      return 'x';
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([LooseTool])),
    [
      {
        code: 'unknown-property-type',
        className: 'Loose',
        member: 'anything',
        message:
          'Loose.anything: the type of this property cannot be known (design:type is Object: a union, a map, an interface or any); for a union write @UnionOf([A, B]) (or @UnionOf({ discriminator, cases }) for classes told apart by a property), for a map @MapOf(ValueType), for a nested class @ValidateNested() with @Type(() => Class), for any JSON value @Allow(); otherwise add a class-validator type decorator such as @IsString()',
      },
      {
        code: 'array-item-type',
        className: 'Loose',
        member: 'list',
        message:
          'Loose.list: the items of this array have no known type; add @IsString({ each: true }) (or another type decorator with { each: true }), or @ValidateNested({ each: true }) with @Type(() => Item)',
      },
      {
        code: 'invalid-schema',
        className: 'Loose',
        member: 'both',
        message: 'Loose.both: @IsInt() and @IsString() contradict each other, so no value can pass; remove one of them',
      },
    ],
  );
});

test('without reflect-metadata, an uninferable args class is reflect-metadata-missing', () => {
  @Tool({ description: 'Needs metadata' })
  class NeedsMetadata {
    execute(args: object) {
      return String(args);
    }
  }
  const reflect = Reflect as unknown as Record<string, unknown>;
  const saved = reflect.getMetadata;
  reflect.getMetadata = undefined;
  try {
    assert.deepEqual(
      issuesOf(() => compile([NeedsMetadata])),
      [
        {
          code: 'reflect-metadata-missing',
          className: 'NeedsMetadata',
          member: 'execute',
          message:
            "class NeedsMetadata: reflect-metadata is not loaded, so the type of execute()'s first parameter cannot be read: import 'reflect-metadata' (or toolwright) before any decorated class, or add @Tool({ args: YourArgs })",
        },
      ],
    );
  } finally {
    reflect.getMetadata = saved;
  }
});

test('plain-function twins of @Description and @Field land in the schema', () => {
  class Twin {
    @IsString() path!: string;
    @IsOptional() @IsInt() depth?: number;
  }
  defineDescription(Twin, 'path', 'Where to look');
  defineField(Twin, 'depth', { title: 'Depth', examples: [1, 2] });
  @Tool({ description: 'Twin', args: Twin })
  class TwinTool {
    execute() {
      return 'x';
    }
  }
  assert.deepEqual(compile([TwinTool])[0]!.parameters, {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Where to look' },
      depth: { type: ['integer', 'null'], title: 'Depth', examples: [1, 2] },
    },
    required: ['path'],
    additionalProperties: false,
  });
});

test('@Field and @Description land in the schema', () => {
  class Documented {
    @Field({ title: 'Path', description: 'Where to look', examples: ['src'], deprecated: true, default: '.' })
    @IsOptional()
    @IsString()
    path?: string;
  }
  @Tool({ description: 'Documented', args: Documented })
  class DocumentedTool {
    execute() {
      return 'x';
    }
  }
  const [tool] = compile([DocumentedTool]);
  assert.deepEqual(tool!.parameters, {
    type: 'object',
    properties: {
      path: {
        type: ['string', 'null'],
        title: 'Path',
        description: 'Where to look',
        examples: ['src'],
        deprecated: true,
        default: '.',
      },
    },
    additionalProperties: false,
  });
});

test('a result class gives the output schema; a returned object becomes structured content', async () => {
  class Stats {
    @IsInt() @Min(0) files!: number;
    @IsString() root!: string;
  }
  let next: unknown = { files: 3, root: '/srv' };
  @Tool({ description: 'Counts files', result: Stats })
  class Count {
    execute() {
      return next;
    }
  }
  const [tool] = compile([Count]);
  assert.deepEqual(tool!.outputSchema, {
    type: 'object',
    properties: { files: { type: 'integer', minimum: 0 }, root: { type: 'string' } },
    required: ['files', 'root'],
    additionalProperties: false,
  });
  assert.deepEqual(await tool!.execute({}, contextFor('count')), {
    content: [{ type: 'text', text: '{"files":3,"root":"/srv"}' }],
    structuredContent: { files: 3, root: '/srv' },
  });
  const instance = Object.assign(new Stats(), { files: 1, root: '/' });
  next = instance;
  assert.deepEqual(await tool!.execute({}, contextFor('count')), {
    content: [{ type: 'text', text: '{"files":1,"root":"/"}' }],
    structuredContent: { files: 1, root: '/' },
  });
  next = { files: -1, root: 2 };
  await assert.rejects(tool!.execute({}, contextFor('count')), {
    message: 'structured content does not match the output schema: /files: must be >= 0; /root: must be string',
  });
  next = { content: [{ type: 'text', text: 'own' }], structuredContent: { files: 'x', root: '/' } };
  await assert.rejects(tool!.execute({}, contextFor('count')), {
    message: 'structured content does not match the output schema: /files: must be integer',
  });
  next = 'plain text';
  await assert.rejects(tool!.execute({}, contextFor('count')), {
    name: 'OutputSchemaMismatchError',
    code: 'output-schema-mismatch',
    message: 'structured content does not match the output schema: the tool returned no structured content',
  });
  next = { content: [{ type: 'text', text: 'could not count' }], isError: true };
  assert.deepEqual(await tool!.execute({}, contextFor('count')), next);
});

test('a numeric range and an enum by name are refused without conversion', async () => {
  class Numbers {
    @IsInt() @Min(1) @Max(10) n!: number;
  }
  @Tool({ description: 'Numbers', args: Numbers })
  class NumbersTool {
    execute(args: Numbers) {
      return String(args.n);
    }
  }
  const [tool] = compile([NumbersTool]);
  assert.equal(
    await invalidMessage(tool!.execute({ n: '5' }, contextFor('numbers'))),
    'invalid arguments: /n: must be integer',
  );
  assert.equal(
    await invalidMessage(tool!.execute({ n: 11 }, contextFor('numbers'))),
    'invalid arguments: /n: must be <= 10',
  );
  assert.equal(
    await invalidMessage(tool!.execute({ n: 1.5 }, contextFor('numbers'))),
    'invalid arguments: /n: must be integer',
  );
  assert.equal(await tool!.execute({ n: 10 }, contextFor('numbers')), '10');
});

test('a recursive DTO validates and builds at every level, dropping optional nulls', async () => {
  class TreeNode {
    @IsString() label!: string;
    @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
    @IsOptional() @IsString() note?: string;
  }
  let got: TreeNode | undefined;
  @Tool({ description: 'Takes a tree', args: TreeNode })
  class TreeTool {
    execute(args: TreeNode) {
      got = args;
      return 'ok';
    }
  }
  const [tool] = compile([TreeTool]);
  await tool!.execute(
    { label: 'root', children: [{ label: 'a', note: null, children: [{ label: 'a1', children: null }] }] },
    contextFor('tree'),
  );
  assert.ok(got instanceof TreeNode);
  assert.ok(got.children![0] instanceof TreeNode);
  assert.ok(got.children![0]!.children![0] instanceof TreeNode);
  assert.equal(got.children![0]!.note, undefined);
  assert.equal(got.children![0]!.children![0]!.children, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(got)), {
    label: 'root',
    children: [{ label: 'a', children: [{ label: 'a1' }] }],
  });
  assert.equal(
    await invalidMessage(
      tool!.execute({ label: 'root', children: [{ label: 'a', children: [{ label: 3 }] }] }, contextFor('tree')),
    ),
    'invalid arguments: /children/0/children/0/label: must be string',
  );
});

test('residual rules of @ValidateIf and @IsDate run with class-validator on the built DTO', async () => {
  class Booking {
    @IsIn(['email', 'phone']) channel!: 'email' | 'phone';
    @ValidateIf((booking: Booking) => booking.channel === 'phone') @IsString() @MinLength(5) phone?: string;
    @IsDate() @Type(() => Date) at!: Date;
  }
  let got: Booking | undefined;
  @Tool({ description: 'Books', args: Booking })
  class Book {
    execute(args: Booking) {
      got = args;
      return 'booked';
    }
  }
  const [tool] = compile([Book]);
  assert.deepEqual(
    inspectTool(tool!)
      .residual.map((r) => `${r.property} ${r.constraint}`)
      .sort(),
    ['at isDate', 'phone isString', 'phone minLength', 'phone validateIf'].sort(),
  );
  // The generator keeps a @ValidateIf property without @IsOptional in `required` (reported to its owner); the
  // condition still decides its rules: a short phone passes when the channel is email.
  assert.equal(
    await tool!.execute({ channel: 'email', phone: 'x', at: '2026-11-30T09:00:00Z' }, contextFor('book')),
    'booked',
  );
  assert.ok(got!.at instanceof Date);
  assert.equal(got!.at.toISOString(), '2026-11-30T09:00:00.000Z');
  assert.equal(
    await tool!.execute({ channel: 'phone', phone: '555-1234', at: '2026-11-30T09:00:00Z' }, contextFor('book')),
    'booked',
  );
  assert.equal(
    await invalidMessage(
      tool!.execute({ channel: 'phone', phone: '55', at: '2026-11-30T09:00:00Z' }, contextFor('book')),
    ),
    'invalid arguments: /phone: phone must be longer than or equal to 5 characters',
  );
  assert.equal(
    await invalidMessage(tool!.execute({ channel: 'phone', phone: '555-1234', at: 'soon' }, contextFor('book'))),
    'invalid arguments: /at: must match format "date-time"',
  );
});
