import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsOptional, IsString } from 'class-validator';
import { compile, Requires, Tool, type CallContext, type PermissionRequest } from '../src/index.js';
import { createCallContext } from '../src/runtime/index.js';
import { throughCore } from './support/core-tools.js';

function listTool() {
  class ListArgs {
    @IsOptional() @IsString() path?: string;
  }
  @Tool({ description: 'Lists a folder', args: ListArgs })
  @Requires({ capabilities: ['read'], subject: (args: ListArgs) => args.path ?? '/' })
  class ListTool {
    async execute(args: ListArgs, _ctx: CallContext) {
      return `listed ${args.path ?? '/'}`;
    }
  }
  return compile([ListTool])[0]!;
}

test('a compiled tool reads "" as {} for its @Requires subjects too, as its own pipeline does', async () => {
  const tool = throughCore(listTool());
  const asked: PermissionRequest[] = [];
  const ctx = createCallContext({
    call: { id: '1', tool: 'list', args: '' },
    requirePermission: async (request) => {
      asked.push(request);
      return ['read'];
    },
  });
  const listed = (text: string) => ({ content: [{ type: 'text', text }] });
  assert.deepEqual(await tool.execute('', ctx), listed('listed /'));
  assert.deepEqual(await tool.execute(undefined, ctx), listed('listed /'));
  assert.deepEqual(await tool.execute({ path: '/tmp' }, ctx), listed('listed /tmp'));
  assert.deepEqual(asked, [
    { subject: '/', capabilities: ['read'] },
    { subject: '/', capabilities: ['read'] },
    { subject: '/tmp', capabilities: ['read'] },
  ]);
  await assert.rejects(tool.execute('x', ctx), {
    name: 'InvalidArgumentsError',
    message: 'invalid arguments: expected an object, got a string',
  });
  assert.equal(asked.length, 3);
});
