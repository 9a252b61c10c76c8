import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Executor } from '../src/runtime/executor/index.js';
import { batchClaims } from '../src/runtime/executor/plan.js';
import { deferred, makeTool, settle, type Deferred } from './support/executor-tools.js';

/** Tools whose calls run until the test opens their gate, recording starts by call id. */
function gatedTools() {
  const gates = new Map<string, Deferred<void>>();
  const started: string[] = [];
  const gatedTool = (name: string, claims = {}) =>
    makeTool(name, claims, async (_args, ctx) => {
      const gate = deferred();
      gates.set(ctx.call.id, gate);
      started.push(ctx.call.id);
      await gate.promise;
      return ctx.call.id;
    });
  const open = async (id: string): Promise<void> => {
    gates.get(id)!.resolve();
    await settle();
  };
  return { gatedTool, started, open };
}

test('the executor runs a batch through the online scheduler: a freed slot goes to the earliest waiting call the rules allow', async () => {
  const { gatedTool, started, open } = gatedTools();
  const db = gatedTool('db', { resource: 'db:main' });
  const plain = gatedTool('plain');
  const running = new Executor({ maxParallel: 2 }).run([
    { id: 'db-1', tool: db, args: {} },
    { id: 'db-2', tool: db, args: {} },
    { id: 'p-1', tool: plain, args: {} },
    { id: 'p-2', tool: plain, args: {} },
  ]);
  await settle();
  assert.deepEqual(started, ['db-1', 'p-1']);
  await open('db-1');
  // db-2 arrived before p-2 and its resource is free now, so it gets the slot.
  assert.deepEqual(started, ['db-1', 'p-1', 'db-2']);
  await open('p-1');
  assert.deepEqual(started, ['db-1', 'p-1', 'db-2', 'p-2']);
  await open('db-2');
  await open('p-2');
  assert.deepEqual(
    (await running).map((outcome) => (outcome.ok ? outcome.result.content : outcome.error.message)),
    [
      [{ type: 'text', text: 'db-1' }],
      [{ type: 'text', text: 'db-2' }],
      [{ type: 'text', text: 'p-1' }],
      [{ type: 'text', text: 'p-2' }],
    ],
  );
});

test("batchClaims: the serial rule is the executor's; otherwise each call claims what its tool claims", () => {
  const plain = makeTool('plain');
  const db = makeTool('db', { resource: 'db:main' });
  const sync = makeTool('sync', { barrier: true, sequential: true });
  const seq = makeTool('seq', { sequential: true });
  assert.deepEqual(batchClaims([plain, db, sync, undefined]), [
    { exclusive: false, resource: '', kind: 'none' },
    { exclusive: false, resource: 'db:main', kind: 'resource' },
    { exclusive: true, resource: '', kind: 'barrier' },
    { exclusive: false, resource: '', kind: 'none' },
  ]);
  const serial = { exclusive: true, resource: '', kind: 'sequential' };
  assert.deepEqual(batchClaims([plain, db, seq]), [serial, serial, serial]);
  assert.deepEqual(batchClaims([plain, db], { serial: true }), [serial, serial]);
  assert.deepEqual(batchClaims([]), []);
});

test('a sequential tool in a batch makes the whole batch serial, while online it only runs alone', async () => {
  const { gatedTool, started, open } = gatedTools();
  const plain = gatedTool('plain');
  const seq = gatedTool('seq', { sequential: true });
  const running = new Executor().run([
    { id: 'p-1', tool: plain, args: {} },
    { id: 's', tool: seq, args: {} },
    { id: 'p-2', tool: plain, args: {} },
    { id: 'p-3', tool: plain, args: {} },
  ]);
  await settle();
  assert.deepEqual(started, ['p-1']);
  await open('p-1');
  assert.deepEqual(started, ['p-1', 's']);
  await open('s');
  // Serial: p-2 and p-3 do not run side by side, as they would after a barrier.
  assert.deepEqual(started, ['p-1', 's', 'p-2']);
  await open('p-2');
  assert.deepEqual(started, ['p-1', 's', 'p-2', 'p-3']);
  await open('p-3');
  assert.equal(
    (await running).every((outcome) => outcome.ok),
    true,
  );
});
