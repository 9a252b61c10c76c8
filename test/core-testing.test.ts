import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { compile, Requires, Tool, ReadOnly, type CallContext, type ContractTool } from '../src/index.js';
import { createPolicy } from '../src/runtime/index.js';
import * as local from '../src/testing/index.js';
import { serve } from './support/server-harness.js';

function greetClass() {
  class GreetArgs {
    @IsString() name!: string;
    @IsOptional() @IsInt() @Min(1) @Max(3) times?: number;
  }
  @Tool({ name: 'greet', description: 'Greets someone', args: GreetArgs })
  @ReadOnly()
  @Requires({ capabilities: ['greet'], subject: (a: GreetArgs) => a.name })
  class Greet {
    execute(args: GreetArgs, ctx: CallContext) {
      return `${'hello '.repeat(args.times ?? 1)}${args.name}${ctx.principal === undefined ? '' : ` from ${ctx.principal.subject}`}`;
    }
  }
  return Greet;
}

const handBuilt: ContractTool = {
  name: 'add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  async execute(args) {
    const { a, b } = args as { a: number; b: number };
    return { content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } };
  },
};

test('toolwright/testing is a subpath export of the package', async () => {
  const specifier = 'toolwright/testing';
  const viaPackage = (await import(specifier)) as typeof local;
  assert.equal(viaPackage.testTools, local.testTools);
});

test('a compiled class and a hand-built tool are called by name with raw JSON: the exact MCP results and listing', async () => {
  const allowAll = createPolicy({ rules: [{ effect: 'allow' }] });
  const tools = local.testTools([greetClass(), handBuilt], { policy: allowAll });
  assert.deepEqual(
    tools.listTools().map((tool) => tool.name),
    ['greet', 'add'],
  );
  assert.deepEqual(tools.listTools()[1], {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: handBuilt.parameters,
    outputSchema: handBuilt.outputSchema,
    _meta: { 'io.github.christopherdavenport.agenttool/tool': { replay: true } },
  });
  assert.deepEqual(await tools.callTool('greet', { name: 'Ada', times: 2 }), {
    content: [{ type: 'text', text: 'hello hello Ada' }],
    _meta: {
      'io.github.christopherdavenport.agenttool/record': {
        ns: 'toolwright:permissions',
        data: '{"decisions":[],"grants":[{"subjects":["Ada"],"capabilities":["greet"],"granted":["greet"]}]}',
      },
    },
  });
  assert.deepEqual(await tools.callTool('greet', { name: 'Ada', times: 9, extra: 1 }), {
    content: [
      { type: 'text', text: 'invalid arguments: /: must NOT have additional property "extra"; /times: must be <= 3' },
    ],
    isError: true,
  });
  assert.deepEqual(await tools.callTool('add', { a: 1, b: 'x' }), {
    content: [{ type: 'text', text: 'invalid arguments: /b: must be number' }],
    isError: true,
  });
  assert.deepEqual(await tools.callTool('add', { a: 1, b: 2 }), {
    content: [{ type: 'text', text: '3' }],
    structuredContent: { sum: 3 },
  });
  await assert.rejects(tools.callTool('nope', {}), {
    name: 'ProtocolError',
    code: -32602,
    message: 'Unknown tool: nope',
  });
  await assert.rejects(tools.callTool('add', [1, 2]), {
    name: 'ProtocolError',
    code: -32602,
    message: 'tools/call: params.arguments must be an object, got an array',
  });
});

test("the context of a call: the tester's own and each call's, over the host defaults", async () => {
  const tools = local.testTools([greetClass()], {
    context: {
      principal: { subject: 'tester', clientId: 'app', scopes: [], claims: {} },
      requirePermission: async () => ['greet'],
    },
  });
  assert.deepEqual(await tools.callTool('greet', { name: 'Ada' }), {
    content: [{ type: 'text', text: 'hello Ada from tester' }],
  });
  assert.deepEqual(
    await tools.callTool(
      'greet',
      { name: 'Ada' },
      { context: { principal: { subject: 'other', clientId: 'app', scopes: [], claims: {} } } },
    ),
    { content: [{ type: 'text', text: 'hello Ada from other' }] },
  );
  const unguarded = local.testTools([greetClass()]);
  assert.deepEqual(await unguarded.callTool('greet', { name: 'Ada' }), {
    content: [{ type: 'text', text: 'permission denied: no permission policy is configured to grant greet on "Ada"' }],
    isError: true,
  });
});

test('the tester answers exactly what a real server answers over a real client', async () => {
  const policy = createPolicy({
    rules: [
      { effect: 'allow', subject: 'Ada' },
      { effect: 'deny', reason: 'strangers' },
    ],
  });
  const tools = local.testTools([greetClass(), handBuilt], { policy, maxOutputChars: 12 });
  const connected = await serve(
    [...compile([greetClass()]), handBuilt],
    {},
    { transport: 'memory', policy, maxOutputChars: 12 },
  );
  try {
    const cases: Array<[string, unknown]> = [
      ['greet', { name: 'Ada', times: 3 }],
      ['greet', { name: 'Bob' }],
      ['greet', { name: 5 }],
      ['add', { a: 1, b: 2 }],
      ['add', {}],
    ];
    for (const [name, args] of cases) {
      assert.deepEqual(
        await tools.callTool(name, args),
        await connected.client.callTool({ name, arguments: args as Record<string, unknown> }),
        `${name} ${JSON.stringify(args)}`,
      );
    }
    assert.deepEqual(tools.listTools(), (await connected.client.listTools()).tools);
  } finally {
    await connected.close();
  }
});

test("the README's toolwright/testing example answers as it says", async () => {
  const { GreetTool } = await import('../samples/greet/greet.js');
  const tools = local.testTools([GreetTool]);
  assert.deepEqual(
    tools.listTools().map((tool) => tool.name),
    ['greet'],
  );
  assert.deepEqual(await tools.callTool('greet', { name: 'Ada' }), {
    content: [{ type: 'text', text: 'Hello, Ada!' }],
  });
  assert.deepEqual(await tools.callTool('greet', { times: 9 }), {
    content: [{ type: 'text', text: 'invalid arguments: /: must have required property "name"; /times: must be <= 5' }],
    isError: true,
  });
});
