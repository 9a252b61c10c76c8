import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Injectable, Module } from '@nestjs/common';
import { compile, Tool, type CallContext, type ToolRecord } from '../src/index.js';
import type { Call } from '../src/contract/index.js';
import { Executor } from '../src/runtime/index.js';
import { createProxy, serveHttp } from '../src/mcp/index.js';
import { testTools } from '../src/testing/index.js';
import { startedInMemory, startFailure } from './support/nest-context.js';
import { connect } from './support/server-harness.js';
import { TOOLWRIGHT_CALL_OPTIONS } from '../src/nest/index.js';

/*
 * `onRecord(record, call)` on every host's options: the Executor, `toolwright/testing`, the Nest
 * module (forRoot) and the proxy hear the same records in the same order as the MCP server does
 * (test/edge-records.test.ts pins it over the wire): each record as the tool writes it, then the
 * permissions record under a policy. A throwing hook never changes the call.
 */

@Tool({ name: 'audited', description: 'Writes two records', args: undefined })
@Injectable()
class Audited {
  execute(_args: object, ctx: CallContext): string {
    ctx.writeRecord('app:step', { n: 1 });
    ctx.writeRecord('app:step', { n: 2 });
    return 'done';
  }
}

type Heard = Array<[string, string, unknown]>;
const listener = (heard: Heard) => (record: ToolRecord, call: Call) =>
  heard.push([call.tool, record.ns, JSON.parse(JSON.stringify(record.data))]);
const EXPECTED: Heard = [
  ['audited', 'app:step', { n: 1 }],
  ['audited', 'app:step', { n: 2 }],
];

test('onRecord: the Executor and toolwright/testing hear every record, in order', async () => {
  const heard: Heard = [];
  const tools = testTools([Audited], { onRecord: listener(heard) });
  await tools.callTool('audited');
  assert.deepEqual(heard.splice(0), EXPECTED);
  const executor = new Executor({ tools: compile([Audited]), onRecord: listener(heard) });
  const [outcome] = await executor.run([{ id: 'a', tool: 'audited', args: {} }]);
  assert.deepEqual(outcome!.ok && outcome.result.record, { ns: 'app:step', data: { n: 2 } });
  assert.deepEqual(heard, EXPECTED);
});

test('onRecord: a hook that throws never changes the call', async () => {
  const executor = new Executor({
    tools: compile([Audited]),
    onRecord: () => {
      throw new Error('the recorder is down');
    },
  });
  const [outcome] = await executor.run([{ id: 'a', tool: 'audited', args: {} }]);
  assert.deepEqual(outcome!.ok && outcome.result.content, [{ type: 'text', text: 'done' }]);
});

test('onRecord: the Nest module takes it in forRoot, and refuses it given twice', async () => {
  @Module({ providers: [Audited] })
  class AppModule {}
  const heard: Heard = [];
  const started = await startedInMemory(AppModule, {
    name: 'records',
    version: '1.0.0',
    transport: 'none',
    onRecord: listener(heard),
  });
  try {
    await started.client.callTool({ name: 'audited', arguments: {} });
    assert.deepEqual(heard, EXPECTED);
  } finally {
    await started.close();
  }
  @Module({ providers: [Audited, { provide: TOOLWRIGHT_CALL_OPTIONS, useValue: { onRecord: () => {} } }] })
  class Twice {}
  const failure = await startFailure(Twice, { name: 'r', version: '1', transport: 'none', onRecord: () => {} });
  assert.equal(
    failure.message,
    'ToolwrightModule: "onRecord" is given in the module\'s options and by TOOLWRIGHT_CALL_OPTIONS: give it once',
  );
});

test("onRecord: the proxy hears the upstream's record and its own permissions record", async () => {
  const upstream = await serveHttp({ name: 'up', version: '1.0.0' }, compile([Audited]));
  const heard: Heard = [];
  const proxy = await createProxy([{ url: upstream.url }], {
    policy: { rules: [{ effect: 'allow', capabilities: ['unclassified'] }] },
    onRecord: listener(heard),
  });
  const client = await connect(proxy.createServer());
  try {
    await client.client.callTool({ name: 'audited', arguments: {} });
  } finally {
    await client.close();
    await proxy.close();
    await upstream.close();
  }
  assert.deepEqual(heard, [
    [
      'audited',
      'toolwright:permissions',
      {
        decisions: [],
        grants: [{ subjects: ['audited'], capabilities: ['unclassified'], granted: ['unclassified'] }],
      },
    ],
    ['audited', 'app:step', { n: 2 }],
  ]);
});
