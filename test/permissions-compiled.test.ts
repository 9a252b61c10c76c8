import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsString } from 'class-validator';
import { applyPolicy, textOf, createCallContext, createPolicy } from '../src/runtime/index.js';
import { compile, Requires, Tool, type CallContext, type PermissionRequest } from '../src/index.js';

function saveTool(effects: string[]) {
  class SaveArgs { @IsString() path!: string; }
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

test('a compiled tool with @Requires run without a policy is refused before it acts', async () => {
  const effects: string[] = [];
  const tool = saveTool(effects);
  await assert.rejects(tool.execute({ path: '/tmp/a' }, createCallContext({ call: { id: '1', tool: 'save', args: {} } })), {
    message: 'permission denied: no permission policy is configured to grant write on "/tmp/a"',
  });
  assert.deepEqual(effects, []);
});

test('a compiled tool checks its own @Requires through ctx.requirePermission, and a partial grant is refused', async () => {
  const effects: string[] = [];
  const tool = saveTool(effects);
  const asked: PermissionRequest[] = [];
  const grantOnly = (capabilities: string[]) => createCallContext({
    call: { id: '1', tool: 'save', args: {} },
    requirePermission: async (request) => { asked.push(request); return capabilities; },
  });
  assert.deepEqual(await tool.execute({ path: '/tmp/a' }, grantOnly(['write'])), 'saved /tmp/a');
  await assert.rejects(tool.execute({ path: '/tmp/b' }, grantOnly(['read'])), { name: 'PermissionDeniedError', message: 'permission denied: write on "/tmp/b"' });
  assert.deepEqual(effects, ['/tmp/a']);
  assert.deepEqual(asked, [{ subject: '/tmp/a', capabilities: ['write'] }, { subject: '/tmp/b', capabilities: ['write'] }]);
});

test('under applyPolicy the compiled tool is asked once and runs once', async () => {
  const effects: string[] = [];
  let questions = 0;
  const policy = createPolicy({ ask: async () => { questions += 1; return { decision: 'allow_once' }; } });
  const [tool] = applyPolicy([saveTool(effects)], policy);
  const output = await tool!.execute({ path: '/tmp/c' }, createCallContext({ call: { id: '1', tool: 'save', args: {} } }));
  assert.equal(textOf(output), "saved /tmp/c");
  assert.equal(questions, 1);
  assert.deepEqual(effects, ['/tmp/c']);
});
