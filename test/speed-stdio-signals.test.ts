/**
 * The request's signal is made only when someone reads it (issue 28, speed). Node gives every
 * `AbortSignal` a hidden class of its own, which the collector keeps until a full collection:
 * made once per call, it turned each scavenge at 16 calls in flight into a copy of every call's
 * objects. These tests pin that a 2025-era `tools/call` answered directly over stdio makes no
 * abort controller when its tool never reads `ctx.signal`, that a signal first read after the
 * request was cancelled is already aborted with the client's reason (and the call gets no
 * answer), that a copy of a lazy context (`contextWith`, the time limit's) keeps its signal lazy
 * through the one shared getter, and that a scheduler reads a call's signal only when the call has
 * to wait. In process, well under a second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { connectStdio } from '../src/mcp/transports/stdio/connect-stdio.js';
import { createServer } from '../src/mcp/server/index.js';
import { createLazySignalContext } from '../src/contract/internal.js';
import { contextWith } from '../src/runtime/permissions/context.js';
import { CallTimeLimit } from '../src/runtime/call/time-limit.js';
import { Scheduler, enter, schedulingClaimsOf, type AdmitOptions } from '../src/runtime/scheduler/index.js';
import type { ContractTool } from '../src/index.js';
import { TEST_CALL } from './support/text.js';
import { LineStdout } from './support/line-stdout.js';

/** Counts the abort controllers made while `run` runs (the global is put back after). */
async function countingControllers<T>(run: () => Promise<T>): Promise<{ made: number; value: T }> {
  const original = globalThis.AbortController;
  let made = 0;
  globalThis.AbortController = class extends original {
    constructor() {
      super();
      made += 1;
    }
  };
  try {
    const value = await run();
    return { made, value };
  } finally {
    globalThis.AbortController = original;
  }
}

test('a direct tools/call makes no abort signal unless its tool reads ctx.signal (with a time limit too); read late, it is already aborted', async () => {
  let letLateRead!: () => void;
  const cancelled = new Promise<void>((resolve) => (letLateRead = resolve));
  const seen: string[] = [];
  const tools: ContractTool[] = [
    {
      name: 'echo',
      description: 'Echoes its text',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: async (args) => String((args as { text: unknown }).text),
    },
    {
      name: 'timed',
      description: 'Echoes its text under a time limit',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      timeoutMs: 60_000,
      execute: async (args) => String((args as { text: unknown }).text),
    },
    {
      name: 'late',
      description: 'Reads its signal only once the test says the cancel was handled',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => {
        await cancelled;
        seen.push(`aborted ${ctx.signal.aborted}: ${String(ctx.signal.reason)}`);
        return 'too late';
      },
    },
  ];
  const stdin = new PassThrough();
  const stdout = new LineStdout();
  const handle = await connectStdio(
    () => createServer({ name: 'signals', version: '1.0.0' }, tools, { transport: 'stdio' }),
    { stdin, stdout, handleSignals: false, exitProcess: false, guardStdout: false, log: () => undefined },
  );
  const send = (message: unknown): void => void stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  await stdout.next();
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const echoed = await countingControllers(async () => {
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    return stdout.next();
  });
  assert.equal(echoed.value, '{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":2}');
  assert.equal(echoed.made, 0);
  // Nor under a time limit: the wait's limit and the run's make their signals only when read.
  const timed = await countingControllers(async () => {
    send({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'timed', arguments: { text: 'on time' } } });
    return stdout.next();
  });
  assert.equal(timed.value, '{"result":{"content":[{"type":"text","text":"on time"}]},"jsonrpc":"2.0","id":6}');
  assert.equal(timed.made, 0);
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'late', arguments: {} } });
  send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'user stopped it' } });
  // Messages are handled in order: once ping is answered, the cancel was too.
  send({ jsonrpc: '2.0', id: 4, method: 'ping' });
  assert.equal(await stdout.next(), '{"result":{},"jsonrpc":"2.0","id":4}');
  letLateRead();
  send({ jsonrpc: '2.0', id: 5, method: 'ping' });
  // The cancelled call is never answered: the next line is the second ping's answer.
  assert.equal(await stdout.next(), '{"result":{},"jsonrpc":"2.0","id":5}');
  assert.deepEqual(seen, ['aborted true: user stopped it']);
  await handle.close();
});

test("a copy of a lazy context keeps its signal lazy, read from the original's source", () => {
  const controller = new AbortController();
  let reads = 0;
  const ctx = createLazySignalContext({ call: TEST_CALL }, () => {
    reads += 1;
    return controller.signal;
  });
  const copy = contextWith(ctx, { log: () => undefined });
  const limited = new CallTimeLimit('t', 60_000).contextFor(copy);
  assert.equal(reads, 0);
  assert.ok(Object.keys(copy).includes('signal'));
  assert.equal(copy.signal, controller.signal);
  assert.equal(reads, 1);
  // The time limit's own signal follows the copy's, which follows the original source.
  controller.abort('stop');
  assert.equal(limited.signal.aborted, true);
  assert.equal(limited.signal.reason, 'stop');
  // A spread copies the value, as for any getter.
  assert.equal({ ...ctx }.signal, controller.signal);
});

test('the time limit’s context reads its signal through the shared lazy getter, made on first read', async () => {
  const limit = new CallTimeLimit('t', 1);
  const controller = new AbortController();
  const limited = limit.contextFor(createLazySignalContext({ call: TEST_CALL }, () => controller.signal));
  const getterOf = (ctx: object): unknown => Object.getOwnPropertyDescriptor(ctx, 'signal')?.get;
  const other = new CallTimeLimit('u', 1).contextFor(
    createLazySignalContext({ call: TEST_CALL }, () => controller.signal),
  );
  assert.equal(getterOf(limited), getterOf(other));
  await limit.run(() => new Promise((resolve) => setTimeout(resolve, 20)));
  // Read after the limit passed: already aborted with the timeout.
  assert.equal(limited.signal.aborted, true);
  assert.match(String((limited.signal.reason as Error).message), /tool "t" timed out after 1 ms/);
  assert.equal(limited.signal, limited.signal);
});

test('a scheduler reads a call’s signal only when the call has to wait', async () => {
  const scheduler = new Scheduler({ maxConcurrent: 1 });
  const claims = schedulingClaimsOf({ name: 't', description: '', parameters: {}, execute: async () => '' });
  const controller = new AbortController();
  let reads = 0;
  const options = (): AdmitOptions => ({
    claims,
    label: 't',
    get signal(): AbortSignal {
      reads += 1;
      return controller.signal;
    },
  });
  const first = enter(scheduler, options());
  assert.ok(!(first instanceof Promise));
  assert.equal(reads, 0);
  const second = enter(scheduler, options());
  assert.ok(second instanceof Promise);
  assert.equal(reads, 1);
  controller.abort(new Error('withdrawn'));
  await assert.rejects(second, /withdrawn/);
  first.release();
  assert.equal(scheduler.running, 0);
});
