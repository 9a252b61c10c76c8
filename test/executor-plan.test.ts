import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Executor, InvalidBatchError, planBatch, type BatchCall } from '../src/runtime/executor/index.js';
import type { ContractTool } from '../src/contract/index.js';
import { makeTool } from './support/executor-tools.js';

function batch(...tools: (ContractTool | string)[]): BatchCall[] {
  return tools.map((tool, index) => ({ id: `c${index}`, tool, args: {} }));
}

test('calls without a resource are chains of their own', () => {
  const a = makeTool('a');
  const b = makeTool('b');
  assert.deepEqual(new Executor().chains(batch(a, b, a)), [[0], [1], [2]]);
});

test('calls sharing a resource form one chain in model order, ordered by their first call', () => {
  const readA = makeTool('read_a', { resource: 'fs:a' });
  const writeA = makeTool('write_a', { resource: 'fs:a' });
  const shell = makeTool('shell', { resource: 'shell:1' });
  const plainTool = makeTool('plain');
  assert.deepEqual(new Executor().chains(batch(readA, plainTool, writeA, shell, readA, shell)), [
    [0, 2, 4],
    [1],
    [3, 5],
  ]);
});

test('an empty resource string is no resource', () => {
  const t = makeTool('t', { resource: '' });
  assert.deepEqual(new Executor().chains(batch(t, t)), [[0], [1]]);
});

test('barriers split the batch into stages and are chains of their own', () => {
  const x = makeTool('x', { resource: 'db:x' });
  const p = makeTool('p');
  const barrier = makeTool('sync', { barrier: true });
  const executor = new Executor();
  const calls = batch(x, x, barrier, x, p, barrier, barrier, x);
  assert.deepEqual(executor.plan(calls), {
    serial: false,
    stages: [[[0, 1]], [[2]], [[3], [4]], [[5]], [[6]], [[7]]],
  });
  assert.deepEqual(executor.chains(calls), [[0, 1], [2], [3], [4], [5], [6], [7]]);
});

test('a barrier that also says sequential (as listed over MCP) is a barrier only', () => {
  const barrier = makeTool('sync', { barrier: true, sequential: true });
  const p = makeTool('p');
  assert.deepEqual(new Executor().plan(batch(p, p, barrier, p)), { serial: false, stages: [[[0], [1]], [[2]], [[3]]] });
});

test('a barrier with a resource ignores the resource', () => {
  const barrier = makeTool('sync', { barrier: true, resource: 'db:x' });
  const x = makeTool('x', { resource: 'db:x' });
  assert.deepEqual(new Executor().plan(batch(x, barrier, x)), { serial: false, stages: [[[0]], [[1]], [[2]]] });
});

test('any sequential tool makes the whole batch one chain in model order, resources ignored', () => {
  const sequential = makeTool('seq', { sequential: true, resource: 'db:x' });
  const x = makeTool('x', { resource: 'db:x' });
  const barrier = makeTool('sync', { barrier: true });
  const calls = batch(x, makeTool('p'), barrier, sequential, x);
  assert.deepEqual(new Executor().plan(calls), { serial: true, stages: [[[0, 1, 2, 3, 4]]] });
  assert.deepEqual(new Executor().chains(calls), [[0, 1, 2, 3, 4]]);
});

test('the serial option makes every batch one chain', () => {
  const p = makeTool('p');
  assert.deepEqual(new Executor({ serial: true }).chains(batch(p, p, p)), [[0, 1, 2]]);
});

test('an empty batch has no chains', () => {
  assert.deepEqual(new Executor().chains([]), []);
  assert.deepEqual(new Executor({ serial: true }).plan([]), { serial: true, stages: [] });
  assert.deepEqual(planBatch([]), { serial: false, stages: [] });
});

test('calls naming registered tools are planned by those tools; unknown names are chains of their own', () => {
  const x = makeTool('x', { resource: 'db:x' });
  const executor = new Executor({ tools: [x] });
  assert.deepEqual(executor.chains(batch('x', 'nope', 'x', 'nope')), [[0, 2], [1], [3]]);
});

test('planBatch plans a list of tools directly', () => {
  const x = makeTool('x', { resource: 'db:x' });
  const barrier = makeTool('sync', { barrier: true });
  assert.deepEqual(planBatch([x, undefined, x, barrier]), { serial: false, stages: [[[0, 2], [1]], [[3]]] });
  assert.deepEqual(planBatch([x, x], { serial: true }), { serial: true, stages: [[[0, 1]]] });
});

test('chains refuses a malformed batch with InvalidBatchError', () => {
  const p = makeTool('p');
  const executor = new Executor();
  assert.throws(
    () =>
      executor.chains([
        { id: 'a', tool: p, args: {} },
        { id: 'b', tool: p, args: {} },
        { id: 'a', tool: p, args: {} },
      ]),
    {
      name: 'InvalidBatchError',
      message: 'duplicate call id "a" at positions 0 and 2',
    },
  );
  assert.throws(() => executor.chains({} as unknown as BatchCall[]), {
    name: 'InvalidBatchError',
    message: 'a batch must be an array of calls, got an object',
  });
  assert.throws(() => executor.chains([null as unknown as BatchCall]), {
    name: 'InvalidBatchError',
    message: 'call 0 must be an object with "id", "tool" and "args", got null',
  });
  assert.throws(() => executor.chains([{ id: '', tool: p, args: {} }]), {
    name: 'InvalidBatchError',
    message: 'call 0 needs a non-empty string "id", got ""',
  });
  assert.throws(() => executor.chains([{ tool: p, args: {} } as unknown as BatchCall]), {
    name: 'InvalidBatchError',
    message: 'call 0 needs a non-empty string "id", got undefined',
  });
  assert.throws(() => executor.chains([{ id: 'a', tool: { name: 'x' } as unknown as ContractTool, args: {} }]), {
    name: 'InvalidBatchError',
    message: 'call "a": "tool" must be a contract tool or a tool name, got an object',
  });
  assert.throws(() => executor.chains([{ id: 'a', tool: p, args: {}, idempotencyKey: '' }]), {
    name: 'InvalidBatchError',
    message: 'call "a": "idempotencyKey" must be a non-empty string when given',
  });
  const made = new InvalidBatchError('x');
  assert.ok(made instanceof Error);
  assert.deepEqual({ name: made.name, message: made.message }, { name: 'InvalidBatchError', message: 'x' });
});

test('the constructor refuses bad options with a message naming the option', () => {
  assert.throws(() => new Executor({ maxParallel: 0 }), {
    name: 'TypeError',
    message: 'Executor: "maxParallel" must be a positive integer, got 0',
  });
  assert.throws(() => new Executor({ maxParallel: 1.5 }), {
    name: 'TypeError',
    message: 'Executor: "maxParallel" must be a positive integer, got 1.5',
  });
  assert.throws(() => new Executor({ timeoutMs: -5 }), {
    name: 'TypeError',
    message: 'Executor: "timeoutMs" expected a positive number of milliseconds up to 2147483647, got -5',
  });
  assert.throws(() => new Executor({ timeoutMs: 2 ** 31 }), {
    name: 'TypeError',
    message: 'Executor: "timeoutMs" expected a positive number of milliseconds up to 2147483647, got 2147483648',
  });
  assert.throws(() => new Executor({ serial: 'yes' as unknown as boolean }), {
    name: 'TypeError',
    message: 'Executor: "serial" must be a boolean, got a string',
  });
  assert.throws(() => new Executor({ tools: [makeTool('a'), makeTool('a')] }), {
    name: 'TypeError',
    message: 'Executor: "tools" holds two tools named "a"',
  });
  assert.throws(() => new Executor({ tools: new Map([['a', {} as ContractTool]]) }), {
    name: 'TypeError',
    message: 'Executor: "tools" entry "a" is not a contract tool (it needs a string "name" and an "execute" function)',
  });
  assert.throws(() => new Executor({ replayStore: {} as never }), {
    name: 'TypeError',
    message: 'Executor: "replayStore" must have "begin" and "complete" methods, or be null',
  });
});
