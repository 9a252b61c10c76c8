import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, Tool } from '../src/index.js';
import { inspectTool } from '../src/compiler/index.js';

function echoTool() {
  @Tool({ description: 'Echoes nothing', args: undefined })
  class EchoTool {
    async execute() {
      return 'ok';
    }
  }
  return EchoTool;
}

test('compile refuses a bad option at once with a TypeError naming it, not as a problem of every class', () => {
  const cls = echoTool();
  assert.throws(() => compile([cls], { maxDepth: 0 }), {
    name: 'TypeError',
    message: 'compile(): "maxDepth" must be a positive integer (the deepest nesting of arguments accepted), got 0',
  });
  assert.throws(() => compile([cls], { maxDepth: 1.5 }), {
    name: 'TypeError',
    message: 'compile(): "maxDepth" must be a positive integer (the deepest nesting of arguments accepted), got 1.5',
  });
  assert.throws(() => compile([cls], { resolve: 'new' as never }), {
    name: 'TypeError',
    message: 'compile(): "resolve" must be a function (cls) => instance, got a string',
  });
  assert.throws(() => compile([cls], null as never), {
    name: 'TypeError',
    message: 'compile(): options must be an object, got null',
  });
  const tools = compile([cls], { maxDepth: 3 });
  assert.deepEqual(
    tools.map((tool) => [tool.name, inspectTool(tool).maxDepth]),
    [['echo', 3]],
  );
});
