import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareTools, runToolCall, type CallEnd } from '../src/runtime/call/index.js';
import { markRemoteTool } from '../src/runtime/call/remote.js';
import { type CallContext, type ContractTool, type ToolOutput } from '../src/contract/index.js';
import type { Interceptor } from '../src/runtime/interceptors/types.js';
import { ctxOf } from './support/text.js';

// Imports stop at the call core and the contract (never the package root): each mutant runs this
// file in a fresh process, so it loads only what it tests.

/*
 * The call core's paths with interceptors and no policy, and for tools consumed from another
 * server, as mutation testing (`npm run mutate:call`) found them unpinned. See docs/mutation.md.
 */

const endText = (end: CallEnd): string =>
  end.ok ? (end.result.content[0] as { text: string }).text : `${end.error.name}: ${end.error.message}`;

function tool(
  run: (args: unknown, ctx: CallContext) => ToolOutput | Promise<ToolOutput>,
  extra: Partial<ContractTool> = {},
): ContractTool {
  return {
    name: 't',
    description: 'A tool',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
    execute: run,
    ...extra,
  } as ContractTool;
}

test('interceptors without a policy: @Requires is checked through the context first, then before, execute, after in reverse', async () => {
  const seen: string[] = [];
  const interceptor = (name: string): Interceptor => ({
    name,
    before: () => {
      seen.push(`before ${name}`);
    },
    after: (result) => {
      seen.push(`after ${name}`);
      return { ...result, content: [...result.content, { type: 'text', text: name }] };
    },
  });
  const requires = [{ capabilities: ['write'], subject: (args: { path: string }) => args.path }];
  const ready = prepareTools(
    [
      tool(
        () => {
          seen.push('execute');
          return 'ran';
        },
        { requires },
      ),
    ],
    { interceptors: [interceptor('a'), interceptor('b')] },
  ).get('t')!;
  const granting = ctxOf({
    requirePermission: async () => {
      seen.push('check');
      return ['write'];
    },
  });
  const end = await runToolCall(ready, { path: '/a' }, granting);
  assert.deepEqual(end, {
    ok: true,
    result: {
      content: [
        { type: 'text', text: 'ran' },
        { type: 'text', text: 'b' },
        { type: 'text', text: 'a' },
      ],
    },
  });
  assert.deepEqual(seen, ['check', 'before a', 'before b', 'execute', 'after b', 'after a']);
  seen.length = 0;
  assert.equal(
    endText(await runToolCall(ready, { path: '/a' }, ctxOf())),
    'NoPermissionPolicyError: permission denied: no permission policy is configured to grant write on "/a"',
  );
  assert.deepEqual(seen, []);
});

test('with interceptors, an output the tool or an after gives is checked; a rewrite of a hand-built tool is validated against its schema', async () => {
  const bad = prepareTools([tool(() => 5 as never)], { interceptors: [{ before: () => undefined }] }).get('t')!;
  assert.equal(
    endText(await runToolCall(bad, {}, ctxOf())),
    'InvalidOutputError: tool "t" returned an invalid output: expected a string, an array of content parts or a result object, got a number',
  );
  const badAfter = prepareTools([tool(() => 'fine')], {
    interceptors: [{ after: () => ({ content: [{ type: 'text' }] }) as never }],
  }).get('t')!;
  assert.equal(
    endText(await runToolCall(badAfter, {}, ctxOf())),
    'InvalidOutputError: tool "t" returned an invalid output: content part 0 ("text") needs a string "text", got nothing',
  );
  const runs: unknown[] = [];
  const rewriting = (rewrite: unknown) =>
    prepareTools(
      [
        tool(
          (args) => {
            runs.push(args);
            return 'ran';
          },
          { facts: async () => ({ calls: null, rewrite }) } as never,
        ),
      ],
      { interceptors: [{ before: () => ({ action: 'rewrite' }) }] },
    ).get('t')!;
  assert.equal(endText(await runToolCall(rewriting({ path: '/b' }), { path: '/a' }, ctxOf())), 'ran');
  assert.equal(
    endText(await runToolCall(rewriting({ path: 3 }), { path: '/a' }, ctxOf())),
    'InvalidArgumentsError: invalid arguments: /path: must be string',
  );
  assert.equal(
    endText(await runToolCall(rewriting('text'), { path: '/a' }, ctxOf())),
    'InvalidArgumentsError: invalid arguments: expected an object, got a string',
  );
  assert.deepEqual(runs, [{ path: '/b' }]);
});

test('a tool consumed from another server: only the outer shape of its arguments is checked; its schemas are never compiled, but must be object schemas', async () => {
  const remote = markRemoteTool(
    tool((args) => JSON.stringify(args), {
      parameters: { type: 'object', properties: { n: { type: 'no such type' } } } as never,
      outputSchema: { type: 'object', properties: { n: { type: 'no such type' } } } as never,
    }),
  );
  const ready = prepareTools([remote]).get('t')!;
  assert.equal(
    endText(await runToolCall(ready, { n: 'anything', extra: [1] }, ctxOf())),
    '{"n":"anything","extra":[1]}',
  );
  assert.equal(
    endText(await runToolCall(ready, 'text', ctxOf())),
    'InvalidArgumentsError: invalid arguments: expected an object, got a string',
  );
  assert.throws(() => prepareTools([markRemoteTool(tool(() => 'x', { parameters: { type: 'array' } as never }))]), {
    message: 'prepareTools: tool "t": schema: must be a JSON Schema object with "type": "object" at its root',
  });
  assert.throws(() => prepareTools([markRemoteTool(tool(() => 'x', { outputSchema: { type: 'array' } as never }))]), {
    message: 'prepareTools: tool "t": output schema: must be a JSON Schema object with "type": "object" at its root',
  });
  const local = () =>
    prepareTools([
      tool(() => 'x', { outputSchema: { type: 'object', properties: { n: { type: 'no such type' } } } as never }),
    ]);
  assert.throws(local, /^Error: prepareTools: tool "t": output schema: schema is invalid/);
});
