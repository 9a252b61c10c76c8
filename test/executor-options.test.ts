import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, Executor } from '../src/runtime/index.js';
import { type ContractTool } from '../src/index.js';

const echo: ContractTool = {
  name: 'echo',
  description: 'Echoes',
  async execute() {
    return 'ok';
  },
};

test('Executor names the bad "tools" entry by position, and a "tools" that is no list', () => {
  assert.throws(() => new Executor({ tools: [echo, { name: 'half' } as never] }), {
    name: 'TypeError',
    message: 'Executor: "tools" entry 1 is not a contract tool (it needs a string "name" and an "execute" function)',
  });
  assert.throws(() => new Executor({ tools: { echo } as never }), {
    name: 'TypeError',
    message: 'Executor: "tools" must be a Map of name -> contract tool or a list of contract tools, got an object',
  });
  assert.throws(() => new Executor(null as never), {
    name: 'TypeError',
    message: 'Executor: options must be an object, got null',
  });
  assert.throws(() => createPolicy('strict' as never), {
    name: 'TypeError',
    message: 'permissions: options must be an object, got a string',
  });
});
