import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  annotationsOfListed,
  permissionOf,
  projectResult,
  truncateChars,
  executionOf,
  claimsOf,
  NO_RESULT_TEXT,
} from '../src/mcp/client/index.js';

test('the permission precedence table, row by row', () => {
  const rows: Array<[string, Parameters<typeof permissionOf>[0], Parameters<typeof permissionOf>[1], string]> = [
    [
      'explicit wins over trusted read-only hints',
      { readOnlyHint: true },
      { permission: 'write', trustServerAnnotations: true },
      'write',
    ],
    ['explicit wins untrusted', { destructiveHint: true }, { permission: 'read' }, 'read'],
    [
      'explicit empty wins over trusted hints',
      { readOnlyHint: true },
      { permission: '', trustServerAnnotations: true },
      '',
    ],
    ['untrusted read-only is unclassified', { readOnlyHint: true }, {}, ''],
    ['untrusted destructive is unclassified', { destructiveHint: true }, { trustServerAnnotations: false }, ''],
    [
      'trusted read-only is read',
      { readOnlyHint: true, destructiveHint: true },
      { trustServerAnnotations: true },
      'read',
    ],
    [
      'trusted destructive is write',
      { readOnlyHint: false, destructiveHint: true },
      { trustServerAnnotations: true },
      'write',
    ],
    [
      'trusted with a block but no hints is unclassified (missing destructive reads false)',
      { title: 'T' },
      { trustServerAnnotations: true },
      '',
    ],
    ['trusted with no block is unclassified', undefined, { trustServerAnnotations: true }, ''],
    [
      'trusted with only idempotent and open-world is unclassified',
      { idempotentHint: true, openWorldHint: true },
      { trustServerAnnotations: true },
      '',
    ],
    [
      'a hint that is not the boolean true counts as missing',
      { readOnlyHint: 'true', destructiveHint: 1 },
      { trustServerAnnotations: true },
      '',
    ],
  ];
  for (const [label, annotations, options, expected] of rows)
    assert.equal(permissionOf(annotations, options), expected, label);
});

test('annotations are read as MCP defines them: missing destructive and open-world are true inside a block', () => {
  assert.equal(annotationsOfListed(undefined), undefined);
  assert.deepEqual(annotationsOfListed({}), { readOnly: false, destructive: true, idempotent: false, openWorld: true });
  assert.deepEqual(
    annotationsOfListed({
      title: 'Echo',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    }),
    {
      title: 'Echo',
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    },
  );
  assert.deepEqual(annotationsOfListed({ title: '', readOnlyHint: 'yes' }), {
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: true,
  });
});

test('execution mode: explicit wins, then trusted claims in place of the default, else read parallel and everything else sequential', () => {
  const none = undefined;
  assert.deepEqual(executionOf('parallel', 'write', none), {});
  assert.deepEqual(executionOf('sequential', 'read', none), { sequential: true });
  assert.deepEqual(executionOf('exclusive', 'read', none), { barrier: true });
  assert.deepEqual(executionOf(undefined, 'read', none), {});
  assert.deepEqual(executionOf(undefined, 'write', none), { sequential: true });
  assert.deepEqual(executionOf(undefined, '', none), { sequential: true });
  const meta = (claims: object) =>
    claimsOf({ name: 't', _meta: { 'io.github.christopherdavenport.agenttool/tool': claims } });
  assert.deepEqual(executionOf(undefined, 'read', meta({ resource: 'db:main' })), { resource: 'db:main' });
  assert.deepEqual(executionOf(undefined, 'read', meta({ sequential: true, barrier: true, resource: 'db:main' })), {
    barrier: true,
  });
  assert.deepEqual(executionOf(undefined, 'write', meta({ resource: 'shell:session' })), { resource: 'shell:session' });
  assert.deepEqual(executionOf(undefined, 'write', meta({ sequential: true })), { sequential: true });
  assert.deepEqual(executionOf(undefined, 'write', meta({ facts: true })), {});
  assert.deepEqual(executionOf('sequential', 'read', meta({ resource: 'db:main' })), { sequential: true });
  assert.deepEqual(executionOf('parallel', 'read', meta({ sequential: true })), {});
  assert.deepEqual(meta({ facts: 'yes', replay: true, sequential: 1, resource: 7 }), {
    facts: false,
    replay: true,
    sequential: false,
    barrier: false,
    resource: '',
  });
  assert.deepEqual(claimsOf({ name: 'plain' }), {
    facts: false,
    replay: false,
    sequential: false,
    barrier: false,
    resource: '',
  });
});

test('bounded output: the seed format, line by line', () => {
  const result = {
    isError: true,
    structuredContent: { n: 1 },
    content: [
      { type: 'text', text: 'first' },
      { type: 'text', text: '' },
      { type: 'image', data: Buffer.from('12345').toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///a', mimeType: 'text/plain', text: 'héllo' } },
      { type: 'resource_link', uri: 'file:///b', name: 'b' },
      { type: 'text', text: 'last' },
    ],
  };
  assert.deepEqual(projectResult(result, 0), {
    forLLM:
      'mcp_error=true\nstructured_content={"n":1}\nfirst\ncontent_part type=image mime=image/png bytes=5\ncontent_part type=resource mime=text/plain bytes=6\ncontent_part type=resource_link mime= bytes=0\nlast',
    forUser: '{"n":1}\nfirst\nlast',
    isError: true,
  });
  assert.deepEqual(projectResult({ content: [], ref: 'r-1' }, 100), { forLLM: 'ref=r-1', forUser: '', isError: false });
  assert.deepEqual(projectResult({ content: [{ type: 'text', text: 'x' }], ref: 'r-1' }, 100), {
    forLLM: 'x',
    forUser: 'x',
    isError: false,
  });
  assert.deepEqual(projectResult(undefined, 100), { forLLM: NO_RESULT_TEXT, forUser: NO_RESULT_TEXT, isError: true });
  assert.deepEqual(projectResult(null, 5), { forLLM: 'mc...', forUser: NO_RESULT_TEXT, isError: true });
});

test('bounded output is cut at exact lengths, counting code points and never splitting one', () => {
  const text = 'abcdefghij';
  assert.equal(truncateChars(text, 0), text);
  assert.equal(truncateChars(text, -1), text);
  assert.equal(truncateChars(text, 10), text);
  assert.equal(truncateChars(text, 11), text);
  assert.equal(truncateChars(text, 9), 'abcdef...');
  assert.equal(truncateChars(text, 4), 'a...');
  assert.equal(truncateChars(text, 3), 'abc');
  assert.equal(truncateChars(text, 1), 'a');
  const wide = 'é😀漢😀b';
  assert.equal(Array.from(wide).length, 5);
  assert.equal(truncateChars(wide, 5), wide);
  assert.equal(truncateChars(wide, 4), 'é...');
  assert.equal(truncateChars(wide, 2), 'é😀');
  assert.equal(truncateChars('😀😀😀😀😀😀', 5), '😀😀...');
  assert.deepEqual(projectResult({ content: [{ type: 'text', text: '😀😀😀😀😀😀' }] }, 5), {
    forLLM: '😀😀...',
    forUser: '😀😀😀😀😀😀',
    isError: false,
  });
});
