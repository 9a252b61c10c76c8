import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, Min } from 'class-validator';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as toolwright from '../src/index.js';
import { createServer } from '../src/mcp/index.js';
import { compile, Tool, type ContractTool, type JsonObject } from '../src/index.js';
import { createCallContext, Executor } from '../src/runtime/index.js';
import { createValidator, type SchemaValidator } from '../src/compiler/index.js';
import { serve } from './support/server-harness.js';
import { plain } from './support/executor-tools.js';

/** A validator that records what it compiled and forgot, around a fresh default-configured Ajv. */
function recording(): { validator: SchemaValidator; compiled: object[]; removed: object[] } {
  const inner = createValidator();
  const compiled: object[] = [];
  const removed: object[] = [];
  return {
    compiled,
    removed,
    validator: {
      compile(schema) {
        compiled.push(schema);
        return inner.compile(schema);
      },
      removeSchema(schema) {
        removed.push(schema);
        return inner.removeSchema(schema);
      },
    },
  };
}

const COUNT_SCHEMA = {
  type: 'object',
  properties: { n: { type: 'integer', minimum: 1 } },
  required: ['n'],
  additionalProperties: false,
} as JsonObject;

test('there is no public mutable validator; createValidator makes a fresh one each time', () => {
  assert.equal('sharedAjv' in toolwright, false);
  assert.equal('validatesOwnArguments' in toolwright, false);
  const first = createValidator();
  assert.notEqual(first, createValidator());
  const validate = first.compile({ type: 'string', format: 'email' });
  assert.equal(validate('a@b.example'), true);
  assert.equal(validate('not an email'), false);
});

test("a host compiles a hand-built tool's schemas once with the validator it was given, and forgets them in the validator at once", async () => {
  const { validator, compiled, removed } = recording();
  const counter: ContractTool = {
    name: 'count',
    description: 'Counts',
    parameters: COUNT_SCHEMA,
    execute: async (args) => `n=${(args as { n: number }).n}`,
  };
  const executor = new Executor({ validator });
  const outcomes = await executor.run([
    { id: 'a', tool: counter, args: { n: 2 } },
    { id: 'b', tool: counter, args: { n: 0, extra: true } },
  ]);
  assert.deepEqual(outcomes.map(plain), [
    { id: 'a', tool: 'count', started: true, ok: true, result: { content: [{ type: 'text', text: 'n=2' }] } },
    {
      id: 'b',
      tool: 'count',
      started: false,
      ok: false,
      error: 'InvalidArgumentsError: invalid arguments: /: must NOT have additional property "extra"; /n: must be >= 1',
    },
  ]);
  assert.deepEqual(compiled, [COUNT_SCHEMA]);
  assert.deepEqual(removed, [COUNT_SCHEMA]);
  await new Executor({ validator }).run([{ id: 'c', tool: counter, args: { n: 1 } }]);
  assert.equal(compiled.length, 1, 'the same schema object is compiled once per validator');
  assert.throws(() => new Executor({ validator: {} as never }), {
    name: 'TypeError',
    message:
      'Executor: "validator" must be an object with a compile(schema) function (an Ajv instance, for one), got an object',
  });
  assert.throws(() => createServer({ name: 's', version: '1' }, [], { validator: 'ajv' as never }), {
    name: 'TypeError',
    message:
      'createServer: "validator" must be an object with a compile(schema) function (an Ajv instance, for one), got a string',
  });
});

test('compile takes a validator for the argument pipelines and the output schemas', async () => {
  const { validator, compiled } = recording();
  class Args {
    @IsInt() @Min(1) n!: number;
  }
  class Out {
    @IsInt() doubled!: number;
  }
  @Tool({ name: 'double', description: 'Doubles', args: Args, result: Out })
  class Double {
    execute(args: Args) {
      return { doubled: args.n * 2 };
    }
  }
  const [tool] = compile([Double], { validator });
  assert.deepEqual(compiled, [tool!.parameters, tool!.outputSchema]);
  assert.deepEqual(await tool!.execute({ n: 2 }, createCallContext({ call: { id: '1', tool: 'double', args: {} } })), {
    content: [{ type: 'text', text: '{"doubled":4}' }],
    structuredContent: { doubled: 4 },
  });
  assert.throws(() => compile([Double], { validator: { compile: 1 } as never }), {
    name: 'TypeError',
    message:
      'compile(): "validator" must be an object with a compile(schema) function (an Ajv instance, for one), got an object',
  });
});

test("elicitation forms are compiled with the server's validator, once per schema object, and never kept in its cache", async () => {
  const { validator, compiled, removed } = recording();
  const fixed = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as JsonObject;
  const asker: ContractTool = {
    name: 'ask',
    description: 'Asks twice with one form and once with a form made for the call',
    execute: async (_args, ctx) => {
      await ctx.elicit({ message: 'one', schema: fixed });
      await ctx.elicit({ message: 'two', schema: fixed });
      const fresh = { type: 'object', properties: { ok: { type: 'boolean' } } } as JsonObject;
      const answer = await ctx.elicit({ message: 'three', schema: fresh });
      return JSON.stringify(answer);
    },
  };
  const { client, close } = await serve(
    [asker],
    { capabilities: { elicitation: { form: {} } } },
    { transport: 'memory', validator },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
  try {
    assert.deepEqual(await client.callTool({ name: 'ask' }), {
      content: [{ type: 'text', text: '{"action":"accept","content":{"ok":true}}' }],
    });
    assert.deepEqual(compiled, [fixed, { type: 'object', properties: { ok: { type: 'boolean' } } }]);
    assert.deepEqual(removed, compiled, "every form is taken out of the validator's own cache at once");
  } finally {
    await close();
  }
});

test('the "validates its own arguments" mark cannot be forged: a hand-built tool claiming it is still validated', async () => {
  const runs: unknown[] = [];
  const forged = {
    name: 'forged',
    description: 'Claims the old mark',
    parameters: COUNT_SCHEMA,
    execute: async (args: unknown) => {
      runs.push(args);
      return 'ran';
    },
  } as ContractTool;
  Object.defineProperty(forged, Symbol.for('toolwright/self-validating'), { value: true });
  class Args {
    @IsInt() n!: number;
  }
  @Tool({ name: 'compiled', description: 'Compiled', args: Args })
  class Compiled {
    execute(args: Args) {
      runs.push(args);
      return 'ran';
    }
  }
  const copy = { ...compile([Compiled])[0]!, name: 'copy' } as ContractTool;
  const outcomes = await new Executor().run([
    { id: 'a', tool: forged, args: { n: 'x' } },
    { id: 'b', tool: copy, args: { n: 'x' } },
  ]);
  assert.deepEqual(outcomes.map(plain), [
    {
      id: 'a',
      tool: 'forged',
      started: false,
      ok: false,
      error: 'InvalidArgumentsError: invalid arguments: /n: must be integer',
    },
    {
      id: 'b',
      tool: 'copy',
      started: false,
      ok: false,
      error: 'InvalidArgumentsError: invalid arguments: /n: must be integer',
    },
  ]);
  assert.deepEqual(runs, []);
});
