import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Facts, Tool, compile, type CallContext, type ContractTool } from '../src/index.js';
import { explainTools, formatDefinitions, inspectTool } from '../src/compiler/index.js';
import { isFactual, factsOf, resultOf, wrap } from '../src/runtime/index.js';
import { compiledEntryOf } from '../src/compiler/compile/entry.js';
import { contextFor, invalidMessage, issuesOf } from './support/compile-helpers.js';

const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false };

test('a tool without arguments lists the empty schema and accepts only {} or nothing', async () => {
  const seen: unknown[] = [];
  @Tool({ description: 'Says hello' })
  class HelloTool {
    execute(args: unknown, ctx: CallContext) {
      seen.push(args, ctx.call.id);
      return 'hello';
    }
  }
  // No decorated parameter, no recorded types: execute(args, ctx) is a no-argument tool only with args: undefined.
  Tool({ description: 'Says hello', args: undefined })(HelloTool);
  const [tool] = compile([HelloTool]);
  assert.deepEqual(tool!.parameters, NO_ARGS);
  assert.equal(await tool!.execute({}, contextFor('hello')), 'hello');
  assert.equal(await tool!.execute(undefined, contextFor('hello')), 'hello');
  assert.equal(await tool!.execute('', contextFor('hello')), 'hello');
  assert.deepEqual(seen, [{}, 'call-1', {}, 'call-1', {}, 'call-1']);
  assert.equal(
    await invalidMessage(tool!.execute({ name: 'x' }, contextFor('hello'))),
    'invalid arguments: /: must NOT have additional property "name"',
  );
  assert.equal(
    await invalidMessage(tool!.execute('x', contextFor('hello'))),
    'invalid arguments: expected an object, got a string',
  );
  assert.equal(
    await invalidMessage(tool!.execute(null, contextFor('hello'))),
    'invalid arguments: expected an object, got null',
  );
});

test('a zero-parameter execute() takes no arguments', async () => {
  @Tool({ description: 'Tells the time', title: 'Clock' })
  class Clock {
    execute() {
      return '12:00';
    }
  }
  const [tool] = compile([Clock]);
  assert.deepEqual(
    { ...tool },
    { name: 'clock', title: 'Clock', description: 'Tells the time', parameters: NO_ARGS, execute: tool!.execute },
  );
  assert.equal(await tool!.execute(undefined, contextFor('clock')), '12:00');
});

test('compiled tools, their schemas and the array are frozen, and marked self-validating', () => {
  @Tool({ description: 'Frozen' })
  class Frozen {
    execute() {
      return 'ok';
    }
  }
  const tools = compile([Frozen]);
  assert.ok(Object.isFrozen(tools));
  assert.ok(Object.isFrozen(tools[0]));
  assert.ok(Object.isFrozen(tools[0]!.parameters));
  assert.ok(Object.isFrozen(tools[0]!.parameters!.properties));
  assert.notEqual(
    compiledEntryOf(tools[0]!),
    undefined,
    'compile registered the tool as one that validates its own arguments',
  );
  assert.throws(
    () => {
      (tools as ContractTool[]).push(tools[0]!);
    },
    { name: 'TypeError', message: 'Cannot add property 1, object is not extensible' },
  );
});

test('an instance is used as it is; a class gets resolve, called once', async () => {
  let made = 0;
  @Tool({ description: 'Counts' })
  class Counter {
    count = 0;
    constructor() {
      made++;
    }
    execute() {
      this.count++;
      return String(this.count);
    }
  }
  const mine = new Counter();
  const [fromInstance] = compile([mine]);
  assert.equal(made, 1);
  await fromInstance!.execute({}, contextFor('counter'));
  await fromInstance!.execute({}, contextFor('counter'));
  assert.equal(mine.count, 2);
  const resolved: string[] = [];
  const [fromClass] = compile([Counter], {
    resolve: (cls) => {
      resolved.push(cls.name);
      return new (cls as typeof Counter)();
    },
  });
  assert.deepEqual(resolved, ['Counter']);
  assert.equal(made, 2);
  assert.equal(await fromClass!.execute({}, contextFor('counter')), '1');
  assert.deepEqual(
    issuesOf(() => compile([mine, Counter])).map((i) => i.code),
    ['duplicate-name'],
  );
});

test('errors thrown by execute propagate unchanged', async () => {
  const boom = new Error('disk full');
  @Tool({ description: 'Fails' })
  class Fails {
    execute() {
      throw boom;
    }
  }
  const [tool] = compile([Fails]);
  await assert.rejects(tool!.execute({}, contextFor('fails')), (err) => err === boom);
});

test('outputs: strings, parts and results pass; undefined is empty; other values are refused with the fix', async () => {
  const outputs: unknown[] = [
    'text',
    [{ type: 'text', text: 'part' }],
    { content: [{ type: 'text', text: 'r' }], details: { n: 1 } },
    undefined,
    42,
    { a: 1 },
  ];
  let next = 0;
  @Tool({ description: 'Returns whatever is next' })
  class Next {
    execute() {
      return outputs[next++];
    }
  }
  const [tool] = compile([Next]);
  const ctx = contextFor('next');
  assert.equal(await tool!.execute({}, ctx), 'text');
  assert.deepEqual(await tool!.execute({}, ctx), [{ type: 'text', text: 'part' }]);
  assert.deepEqual(await tool!.execute({}, ctx), { content: [{ type: 'text', text: 'r' }], details: { n: 1 } });
  assert.deepEqual(await tool!.execute({}, ctx), { content: [] });
  await assert.rejects(tool!.execute({}, ctx), {
    message:
      'tool "next": execute returned a number; return a string, an array of content parts or a ToolResult, or declare @Tool({ result: YourResult }) to return structured objects',
  });
  await assert.rejects(tool!.execute({}, ctx), {
    message:
      'tool "next": execute returned an object; return a string, an array of content parts or a ToolResult, or declare @Tool({ result: YourResult }) to return structured objects',
  });
});

test('async execute and close() are awaited; close calls the instance', async () => {
  const events: string[] = [];
  @Tool({ description: 'Holds a handle' })
  class Handle {
    async execute() {
      await new Promise((resolve) => setImmediate(resolve));
      return 'done';
    }
    async close() {
      events.push('closed');
    }
  }
  const [tool] = compile([Handle]);
  assert.deepEqual(resultOf(await tool!.execute({}, contextFor('handle'))), {
    content: [{ type: 'text', text: 'done' }],
  });
  await tool!.close!();
  assert.deepEqual(events, ['closed']);
  @Tool({ description: 'Holds nothing' })
  class Nothing {
    execute() {
      return 'x';
    }
  }
  assert.equal(compile([Nothing])[0]!.close, undefined);
});

test('@Facts makes the facts claim; facts get the validated args and ctx and never run execute', async () => {
  let executed = 0;
  @Tool({ description: 'Cleans up' })
  class Cleanup {
    execute() {
      executed++;
      return 'cleaned';
    }
    @Facts()
    claims(args: object, ctx: CallContext) {
      return {
        calls: [
          { tool: 'delete', args: { path: '/tmp' }, text: `asked by ${ctx.call.id} with ${JSON.stringify(args)}` },
        ],
      };
    }
  }
  const [tool] = compile([Cleanup]);
  assert.equal(isFactual(tool!), true);
  assert.deepEqual(await factsOf(tool!, {}, contextFor('cleanup')), {
    claimed: true,
    facts: { calls: [{ tool: 'delete', args: { path: '/tmp' }, text: 'asked by call-1 with {}' }] },
  });
  const invalid = await factsOf(tool!, { extra: 1 } as never, contextFor('cleanup'));
  assert.deepEqual(Object.keys(invalid), ['claimed', 'error']);
  assert.equal(invalid.claimed, true);
  assert.equal('error' in invalid && invalid.error.name, 'InvalidArgumentsError');
  assert.equal(
    'error' in invalid && invalid.error.message,
    'invalid arguments: /: must NOT have additional property "extra"',
  );
  assert.equal(executed, 0);
});

test('hand-built tools are checked and passed through frozen, never changed', async () => {
  class Stateful {
    readonly name = 'stateful';
    readonly description = 'Counts calls';
    calls = 0;
    async execute() {
      this.calls++;
      return String(this.calls);
    }
  }
  const original = new Stateful();
  const plain = {
    name: 'echo',
    description: 'Echoes',
    parameters: { type: 'object' },
    sequential: true,
    execute: async (args: unknown) => JSON.stringify(args),
  };
  const frozen = Object.freeze({ name: 'frozen', description: 'Already frozen', execute: async () => 'f' });
  const tools = compile([plain, original, frozen]);
  assert.equal(tools[2], frozen, 'a frozen tool keeps its identity');
  assert.notEqual(tools[0], plain);
  assert.equal(Object.isFrozen(plain), false);
  assert.ok(tools.every((t) => Object.isFrozen(t)));
  assert.deepEqual({ ...tools[0], execute: undefined }, { ...plain, execute: undefined });
  assert.equal(await tools[0]!.execute({ a: 1 }, contextFor('echo')), '{"a":1}');
  assert.equal(await tools[1]!.execute({}, contextFor('stateful')), '1');
  assert.equal(await tools[1]!.execute({}, contextFor('stateful')), '2');
  assert.equal(original.calls, 2, 'methods run bound to the original, which stays mutable');
  assert.equal(compiledEntryOf(tools[0]!), undefined, 'a hand-built tool is validated by the call core');
  const wrapped = wrap(tools[0]!, async () => 'wrapped');
  assert.equal(compile([wrapped])[0], wrapped);
});

test('a compiled tool passed to compile again keeps its identity', () => {
  @Tool({ description: 'Again' })
  class Again {
    execute() {
      return 'x';
    }
  }
  const [tool] = compile([Again]);
  assert.equal(compile([tool])[0], tool);
});

test('hand-built tools with problems report each', () => {
  assert.deepEqual(
    issuesOf(() =>
      compile([
        { name: 'ok_name', description: ' ', parameters: { type: 'nope' }, outputSchema: 'x' },
        { description: 'x', execute: async () => 'x' },
      ]),
    ),
    [
      {
        code: 'missing-description',
        className: '',
        member: 'description',
        message:
          'contract tool "ok_name" has no description: give it a "description" that tells the model what the tool does',
      },
      {
        code: 'missing-execute',
        className: '',
        member: 'execute',
        message:
          'contract tool "ok_name" has no execute function: give it execute(args, ctx) returning the tool\'s output',
      },
      {
        code: 'invalid-schema',
        className: '',
        member: 'parameters',
        message:
          'contract tool "ok_name": "parameters" is not a valid JSON Schema 2020-12 (schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf); fix the schema',
      },
      {
        code: 'invalid-schema',
        className: '',
        member: 'outputSchema',
        message:
          'contract tool "ok_name": "outputSchema" is not a valid JSON Schema 2020-12 (it is not a JSON Schema object); fix the schema',
      },
      {
        code: 'invalid-name',
        className: '',
        member: 'name',
        message:
          'the contract tool at item 1 has name undefined, which is not a valid MCP tool name: give it a "name" of 1 to 128 of A-Z a-z 0-9 _ - .',
      },
    ],
  );
});

test('inspectTool, explainTools and formatDefinitions describe compiled and hand-built tools', () => {
  @Tool({ description: 'Tells the time', title: 'Clock' })
  class Clock {
    execute() {
      return '12:00';
    }
  }
  const hand = { name: 'echo', description: 'Echoes', execute: async () => 'x', sequential: true };
  const tools = compile([Clock, hand]);
  assert.deepEqual(inspectTool(tools[0]!), {
    name: 'clock',
    title: 'Clock',
    description: 'Tells the time',
    origin: 'compiled',
    className: 'Clock',
    argsClass: undefined,
    resultClass: undefined,
    parameters: NO_ARGS,
    outputSchema: undefined,
    residual: [],
    maxDepth: 64,
    claims: {},
  });
  assert.deepEqual(
    explainTools(tools).map((t) => [t.origin, t.claims]),
    [
      ['compiled', {}],
      ['hand-built', { sequential: true }],
    ],
  );
  assert.equal(
    formatDefinitions(tools),
    [
      'clock — Tells the time',
      '  title: Clock',
      '  claims: none stated',
      '  arguments:',
      '    (no arguments)',
      '',
      'echo — Echoes',
      '  claims: sequential',
      '  arguments:',
      '    (no arguments)',
      '',
    ].join('\n'),
  );
  assert.equal(
    formatDefinitions([tools[0]!], { schemas: 'json' }),
    [
      'clock — Tells the time',
      '  title: Clock',
      '  claims: none stated',
      '  arguments:',
      '    {',
      '      "type": "object",',
      '      "properties": {},',
      '      "additionalProperties": false',
      '    }',
      '',
    ].join('\n'),
  );
});
