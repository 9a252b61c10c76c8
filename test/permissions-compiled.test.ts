import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsString } from 'class-validator';
import { textOf, createCallContext, createPolicy } from '../src/runtime/index.js';
import { compile, Requires, Tool, type CallContext, type PermissionRequest } from '../src/index.js';
import { throughCore } from './support/core-tools.js';

function saveTool(effects: string[]) {
  class SaveArgs {
    @IsString() path!: string;
  }
  @Tool({ description: 'Saves a file', args: SaveArgs })
  @Requires({ capabilities: ['write'], subject: (args: SaveArgs) => args.path })
  class SaveTool {
    async execute(args: SaveArgs, _ctx: CallContext) {
      effects.push(args.path);
      return `saved ${args.path}`;
    }
  }
  return compile([SaveTool])[0]!;
}

test('a compiled tool with @Requires run by a host without a policy is refused before it acts', async () => {
  const effects: string[] = [];
  const tool = throughCore(saveTool(effects));
  await assert.rejects(
    tool.execute({ path: '/tmp/a' }, createCallContext({ call: { id: '1', tool: 'save', args: {} } })),
    {
      name: 'NoPermissionPolicyError',
      message: 'permission denied: no permission policy is configured to grant write on "/tmp/a"',
    },
  );
  assert.deepEqual(effects, []);
});

test('the call core checks @Requires through ctx.requirePermission, and a partial grant is refused', async () => {
  const effects: string[] = [];
  const tool = throughCore(saveTool(effects));
  const asked: PermissionRequest[] = [];
  const grantOnly = (capabilities: string[]) =>
    createCallContext({
      call: { id: '1', tool: 'save', args: {} },
      requirePermission: async (request) => {
        asked.push(request);
        return capabilities;
      },
    });
  assert.deepEqual(await tool.execute({ path: '/tmp/a' }, grantOnly(['write'])), {
    content: [{ type: 'text', text: 'saved /tmp/a' }],
  });
  await assert.rejects(tool.execute({ path: '/tmp/b' }, grantOnly(['read'])), {
    name: 'PermissionDeniedError',
    message: 'permission denied: write on "/tmp/b"',
  });
  assert.deepEqual(effects, ['/tmp/a']);
  assert.deepEqual(asked, [
    { subject: '/tmp/a', capabilities: ['write'] },
    { subject: '/tmp/b', capabilities: ['write'] },
  ]);
});

test("a compiled tool's own execute, called with no host, validates its arguments but leaves @Requires to the hosts", async () => {
  const effects: string[] = [];
  const tool = saveTool(effects);
  let asked = 0;
  const ctx = createCallContext({
    call: { id: '1', tool: 'save', args: {} },
    requirePermission: async () => {
      asked += 1;
      return [];
    },
  });
  assert.equal(await tool.execute({ path: '/tmp/a' }, ctx), 'saved /tmp/a');
  await assert.rejects(tool.execute({ path: 5 }, ctx), {
    name: 'InvalidArgumentsError',
    message: 'invalid arguments: /path: must be string',
  });
  assert.equal(asked, 0);
  assert.deepEqual(effects, ['/tmp/a']);
});

test('under a policy the compiled tool is asked once and runs once', async () => {
  const effects: string[] = [];
  let questions = 0;
  const policy = createPolicy({
    ask: async () => {
      questions += 1;
      return { decision: 'allow_once' };
    },
  });
  const [tool] = [throughCore(saveTool(effects), { policy: policy })];
  const output = await tool!.execute(
    { path: '/tmp/c' },
    createCallContext({ call: { id: '1', tool: 'save', args: {} } }),
  );
  assert.equal(textOf(output), 'saved /tmp/c');
  assert.equal(questions, 1);
  assert.deepEqual(effects, ['/tmp/c']);
});
