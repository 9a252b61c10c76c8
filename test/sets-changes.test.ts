import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { compilePrompts, compileResources, type ContractTool } from '../src/index.js';
import { FACTS_METHOD, createServer, servedSetOf, type ServedSet } from '../src/mcp/server/index.js';
import { testPrompts, testResources, testTools } from '../src/testing/index.js';
import { prompts, resources } from './support/features-fixture.js';
import { schedTools } from './support/sched-tools.js';
import { connect, notificationsOf, until } from './support/server-harness.js';

/*
 * A served set changed in process (a `createServer` server's set, with a real SDK 1.x client in
 * memory, and the testers of `toolwright/testing`): refused changes change nothing and say why;
 * resources and prompts change as tools do, each kind told once; scheduling claims hold across
 * the change; `execution/facts` answers the set served now; a tester's call in flight finishes
 * with the tool it started with.
 */

const INFO = { name: 'sets', version: '1.0.0' };
const tool = (name: string, answer = name): ContractTool => ({
  name,
  description: `the ${name} tool`,
  execute: async () => answer,
});

test('sets: a refused change says why and changes nothing, and no client is told', async () => {
  const server = createServer(INFO, [tool('one'), tool('two')], { transport: 'memory' });
  const set: ServedSet = servedSetOf(server)!;
  const { client, wire, close } = await connect(server);
  try {
    const refused = (change: () => void, message: string) =>
      assert.throws(change, { name: 'SetChangeError', code: 'set-change-refused', message });
    refused(
      () => set.update(7 as never),
      'update: the change must be an object such as { addTools: [...] }, got a number',
    );
    refused(
      () => set.update({ addTool: [] } as never),
      'update: unknown change "addTool"; use tools, addTools, removeTools, resources, addResources, removeResources, prompts, addPrompts, removePrompts',
    );
    refused(
      () => set.update({ tools: [], addTools: [tool('three')] }),
      'update: "tools" replaces the whole list; give it without "addTools" and "removeTools"',
    );
    refused(() => set.addTools(tool('three') as never), 'addTools: "addTools" must be an array, got an object');
    refused(() => set.removeTools(['three']), 'removeTools: no tool "three" is served, so it cannot be removed');
    refused(() => set.addTools([tool('three'), tool('three')]), 'addTools: tool "three" is added twice');
    refused(
      () => set.update({ addTools: [tool('three')], removeTools: ['nope'] }),
      'update: no tool "nope" is served, so it cannot be removed',
    );
    refused(
      () => set.addTools([tool('three'), tool('bad name')]),
      'addTools: tool "bad name": the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."',
    );
    assert.deepEqual(
      (await client.listTools()).tools.map((listed) => listed.name),
      ['one', 'two'],
    );
    assert.deepEqual(notificationsOf(wire, 'notifications/tools/list_changed'), []);
  } finally {
    await close();
  }
});

test('sets: resources and prompts change as tools do; each kind that changed is told once', async () => {
  const [notes, profile] = compileResources(resources);
  const [greet, interview] = compilePrompts(prompts);
  const server = createServer(INFO, [tool('one')], { transport: 'memory', resources: [notes!], prompts: [greet!] });
  const set = servedSetOf(server)!;
  const { client, wire, close } = await connect(server);
  try {
    set.update({ addResources: [profile!], addPrompts: [interview!], removeTools: ['one'] });
    await until(() => notificationsOf(wire, 'notifications/prompts/list_changed').length === 1);
    assert.deepEqual(
      ['tools', 'resources', 'prompts'].map((kind) => notificationsOf(wire, `notifications/${kind}/list_changed`)),
      [[undefined], [undefined], [undefined]],
    );
    assert.deepEqual((await client.listTools()).tools, []);
    assert.deepEqual(
      (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate),
      ['users://{id}/profile'],
    );
    assert.deepEqual(
      (await client.listPrompts()).prompts.map((prompt) => prompt.name),
      ['greet', 'interview'],
    );
    set.removeResources(['notes://today', 'users://{id}/profile']);
    set.removePrompts(['greet']);
    await until(() => notificationsOf(wire, 'notifications/prompts/list_changed').length === 2);
    assert.deepEqual((await client.listResources()).resources, []);
    assert.deepEqual(
      (await client.listPrompts()).prompts.map((prompt) => prompt.name),
      ['interview'],
    );
    assert.equal(notificationsOf(wire, 'notifications/resources/list_changed').length, 2);
    assert.equal(notificationsOf(wire, 'notifications/tools/list_changed').length, 1);
    assert.deepEqual(
      set.prompts.map((prompt) => prompt.name),
      ['interview'],
    );
  } finally {
    await close();
  }
});

test('sets: a call of a tool added later waits for the running call its resource claim orders it after', async () => {
  const all = schedTools();
  const later = all.find((one) => one.name === 'res_a_too')!;
  const server = createServer(
    INFO,
    all.filter((one) => one !== later),
    { transport: 'memory' },
  );
  const { client, close } = await connect(server);
  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
  const history = async () => JSON.parse(text(await client.callTool({ name: 'history' }))) as string[];
  try {
    const gated = client.callTool({ name: 'gate_a', arguments: { id: 'g', gate: 'x' } });
    for (let tries = 0; tries < 200 && (await history()).length === 0; tries++);
    servedSetOf(server)!.addTools([later]);
    const after = client.callTool({ name: 'res_a_too', arguments: { id: 'n', ms: 0 } });
    // Requests are handled in order: once these answer, res_a_too's call has reached the scheduler.
    for (let round = 0; round < 5; round++) assert.deepEqual(await history(), ['start g']);
    await client.callTool({ name: 'open', arguments: { gate: 'x' } });
    await Promise.all([gated, after]);
    assert.deepEqual(await history(), ['start g', 'end g', 'start n', 'end n']);
  } finally {
    await close();
  }
});

test('sets: execution/facts answers the set served now', async () => {
  const server = createServer(INFO, [tool('one')], { transport: 'memory' });
  const { client, close } = await connect(server);
  const facts = async () =>
    client.request(
      {
        method: FACTS_METHOD,
        params: {
          calls: [
            { name: 'one', arguments: {} },
            { name: 'two', arguments: {} },
          ],
        },
      } as never,
      ResultSchema,
    );
  try {
    assert.deepEqual(await facts(), {
      results: [{ replay: 'unknown' }, { error: 'unknown tool "two"', replay: 'unknown' }],
    });
    servedSetOf(server)!.update({ tools: [{ ...tool('two'), replay: 'safe', facts: () => ({ calls: null }) }] });
    assert.deepEqual(await facts(), {
      results: [
        { error: 'unknown tool "one"', replay: 'unknown' },
        { facts: { calls: null }, replay: 'safe' },
      ],
    });
  } finally {
    await close();
  }
});

test('sets: a tester adds, replaces and removes tools; a call in flight finishes with the tool it started with', async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const first: ContractTool = {
    name: 'slow',
    description: 'v1',
    execute: async () => {
      await released;
      return 'slow v1';
    },
  };
  const tester = testTools([first, tool('doomed')]);
  const inFlight = tester.callTool('slow');
  tester.addTools([tool('slow', 'slow v2'), tool('fresh')]);
  tester.removeTools(['doomed']);
  assert.deepEqual(
    tester.listTools().map((listed) => [listed.name, listed.description]),
    [
      ['slow', 'the slow tool'],
      ['fresh', 'the fresh tool'],
    ],
  );
  assert.deepEqual(await tester.callTool('slow'), { content: [{ type: 'text', text: 'slow v2' }] });
  await assert.rejects(tester.callTool('doomed'), { code: -32602, message: 'Unknown tool: doomed' });
  release();
  assert.deepEqual(await inFlight, { content: [{ type: 'text', text: 'slow v1' }] });
  assert.throws(() => tester.removeTools(['doomed']), {
    name: 'SetChangeError',
    message: 'removeTools: no tool "doomed" is served, so it cannot be removed',
  });

  const readers = testResources([resources[0]]);
  readers.addResources([resources[1]]);
  readers.removeResources(['notes://today']);
  assert.deepEqual(await readers.listResources(), { resources: [] });
  assert.deepEqual(
    ((await readers.listResourceTemplates()).resourceTemplates as { uriTemplate: string }[]).map((t) => t.uriTemplate),
    ['users://{id}/profile'],
  );
  const renderers = testPrompts(prompts);
  renderers.removePrompts(['interview']);
  assert.deepEqual(
    ((await renderers.listPrompts()).prompts as { name: string }[]).map((prompt) => prompt.name),
    ['greet'],
  );
});
