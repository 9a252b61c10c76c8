import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ContractError, Tool, compile, type ContractTool, type ToolOutput } from '../src/index.js';
import { applySchemaProfile, lintTools, PROFILE_LEAVES } from '../src/compiler/index.js';
import { createCallContext } from '../src/runtime/index.js';
import { serveHttp } from '../src/index.js';
import { tools as issueTools } from '../samples/issues/tools.js';
import { invalidMessage } from './support/compile-helpers.js';

const ctx = (tool: string) => createCallContext({ call: { id: 'c1', tool, args: {} } });

function byName(tools: readonly ContractTool[], name: string): ContractTool {
  const tool = tools.find((each) => each.name === name);
  assert.ok(tool, `no tool ${name}`);
  return tool;
}

const exact = compile(issueTools);
const portable = compile(issueTools, { schemaProfile: 'portable', recursionDepth: 2 });

test('the issue tracker sample as generated breaks these documented provider rules', () => {
  const counts: Record<string, number> = {};
  for (const finding of lintTools(exact)) counts[finding.rule] = (counts[finding.rule] ?? 0) + 1;
  assert.deepEqual(counts, {
    'openai-strict/all-required': 10,
    'openai-strict/additional-properties': 2,
    'openai-strict/unsupported-keyword': 13,
    'gemini/type-list': 10,
    'gemini/enum-strings': 1,
    'gemini/format': 1,
    'gemini/map': 2,
    'gemini/unsupported-keyword': 2,
    'gemini/ref': 3,
    'gemini/additional-properties': 11,
    'anthropic-strict/length-bounds': 8,
    'anthropic-strict/array-bounds': 1,
    'anthropic-strict/additional-properties': 2,
    'anthropic-strict/type-list': 10,
    'anthropic-strict/numeric-bounds': 7,
    'anthropic-strict/recursion': 1,
  });
});

test('with the portable profile every tool passes every provider rule but raw Gemini additionalProperties', () => {
  // portable keeps additionalProperties: false (OpenAI and Anthropic strict require it); the
  // gemini profile is the listing for hosts that hand schemas to Gemini as they are.
  const findings = lintTools(portable);
  assert.deepEqual(
    findings.filter((finding) => finding.rule !== 'gemini/additional-properties'),
    [],
  );
  // One per object of the listing (map entries and unrolled recursion list more objects than the exact schema).
  assert.equal(findings.length, 14);
  // Told the listing is portable, the lint leaves that rule to the host; named providers get it back.
  assert.deepEqual(lintTools(portable, { profile: 'portable' }), []);
  assert.equal(lintTools(portable, { profile: 'portable', providers: ['gemini'] }).length, 14);
  assert.deepEqual(PROFILE_LEAVES, { portable: ['gemini/additional-properties'] });
});

test('each provider profile passes that provider rules', () => {
  for (const profile of ['openai-strict', 'gemini', 'anthropic-strict'] as const) {
    assert.deepEqual(lintTools(compile(issueTools, { schemaProfile: profile }), { providers: [profile] }), [], profile);
  }
});

test('the default listing stays the exact schema; output schemas stay exact under every profile', () => {
  assert.deepEqual(byName(exact, 'search_issues').parameters, {
    type: 'object',
    properties: {
      query: { description: 'Words to look for', type: 'string', minLength: 1 },
      states: {
        description: 'States to include',
        type: ['array', 'null'],
        items: { type: 'string', enum: ['open', 'closed'] },
        default: ['open'],
      },
      limit: {
        description: 'Most results to return',
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 100,
        default: 20,
      },
    },
    required: ['query'],
    additionalProperties: false,
  });
  assert.deepEqual(byName(portable, 'search_issues').outputSchema, byName(exact, 'search_issues').outputSchema);
});

test('portable: what a provider cannot express moves into the description; optional becomes required and nullable', () => {
  assert.deepEqual(byName(portable, 'search_issues').parameters, {
    type: 'object',
    properties: {
      query: { description: 'Words to look for (at least 1 character)', type: 'string' },
      states: {
        description: 'States to include (default: ["open"])',
        anyOf: [{ type: 'array', items: { type: 'string', enum: ['open', 'closed'] } }, { type: 'null' }],
      },
      limit: {
        description: 'Most results to return (at least 1; at most 100; default: 20)',
        anyOf: [{ type: 'integer' }, { type: 'null' }],
      },
    },
    required: ['query', 'states', 'limit'],
    additionalProperties: false,
  });
});

test('portable: a recursive class is unrolled to recursionDepth levels, deeper optional levels left out', () => {
  const level2 = {
    type: 'object',
    properties: { title: { type: 'string', description: 'At least 1 character.' } },
    required: ['title'],
    additionalProperties: false,
  };
  const level1 = {
    type: 'object',
    properties: {
      title: { type: 'string', description: 'At least 1 character.' },
      subtasks: {
        description: 'Smaller tasks this one splits into',
        anyOf: [{ type: 'array', items: level2 }, { type: 'null' }],
      },
    },
    required: ['title', 'subtasks'],
    additionalProperties: false,
  };
  assert.deepEqual(byName(portable, 'plan_tasks').parameters, {
    type: 'object',
    properties: { issue: { type: 'integer', description: 'At least 1.' }, tasks: { type: 'array', items: level1 } },
    required: ['issue', 'tasks'],
    additionalProperties: false,
  });
});

test('portable: a map is listed as { key, value } entries and reaches the tool as the object', async () => {
  const tool = byName(portable, 'link_issues');
  assert.deepEqual((tool.parameters!.properties as Record<string, unknown>).links, {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        key: { type: 'string' },
        value: {
          type: 'object',
          properties: {
            relation: { type: 'string', enum: ['blocks', 'duplicates', 'relates'] },
            issue: { type: 'integer', description: 'At least 1.' },
          },
          required: ['relation', 'issue'],
          additionalProperties: false,
        },
      },
      required: ['key', 'value'],
      additionalProperties: false,
    },
    description: 'Links by name (a map, listed as an array of { key, value } entries)',
  });
  const output = await tool.execute(
    { issue: 3, links: [{ key: 'a', value: { relation: 'blocks', issue: 4 } }] },
    ctx('link_issues'),
  );
  assert.equal(output, 'a: #3 blocks #4');
  assert.equal(
    await invalidMessage(
      tool.execute({ issue: 3, links: [{ key: 'a', value: { relation: 'fixes', issue: 0 } }] }, ctx('link_issues')),
    ),
    'invalid arguments: /links/a/relation: must be one of "blocks", "duplicates", "relates"; /links/a/issue: must be >= 1',
  );
});

test('portable: the server still refuses what the listing only describes, with the exact message', async () => {
  const tool = byName(portable, 'search_issues');
  assert.equal(
    await invalidMessage(tool.execute({ query: '', states: null, limit: 500 }, ctx('search_issues'))),
    'invalid arguments: /query: must NOT have fewer than 1 characters; /limit: must be <= 100',
  );
});

test('portable: every tool of the sample is called with valid and invalid arguments', async () => {
  const calls: [string, unknown, ToolOutput | RegExp][] = [
    [
      'create_issue',
      {
        title: 'Crash on save',
        body: null,
        labels: [{ name: 'bug', color: null }],
        priority: null,
        assignees: null,
        due: null,
        fields: [{ key: 'area', value: 'editor' }],
      },
      {
        id: 1,
        title: 'Crash on save',
        url: 'https://issues.example/1',
        state: 'open',
        labels: ['bug'],
      } as unknown as ToolOutput,
    ],
    [
      'create_issue',
      { title: 'ab', body: null, labels: null, priority: 'urgent', assignees: null, due: null, fields: null },
      /^invalid arguments: \/title: must NOT have fewer than 3 characters; \/priority: must be one of "low", "normal", "high", null$/,
    ],
    [
      'search_issues',
      { query: 'Crash', states: null, limit: null },
      {
        issues: [{ id: 1, title: 'Crash on save', url: 'https://issues.example/1', state: 'open', labels: ['bug'] }],
        total: 1,
      } as unknown as ToolOutput,
    ],
    ['add_comment', { issue: 'WEB-12', body: 'seen it' }, 'commented on WEB-12: seen it'],
    ['add_comment', { issue: 12, body: 'seen it' }, 'commented on #12: seen it'],
    ['add_comment', { issue: true, body: 'x' }, /^invalid arguments: \/issue: must be number or string$/],
    ['schedule_issue', { issue: 1, target: { kind: 'sprint', sprint: 4 } }, '#1 planned for sprint 4'],
    ['schedule_issue', { issue: 1, target: { kind: 'milestone', milestone: 'v2' } }, '#1 planned for milestone v2'],
    [
      'schedule_issue',
      { issue: 1, target: { kind: 'quarter', sprint: 4 } },
      /^invalid arguments: \/target\/kind: must be one of "milestone", "sprint"$/,
    ],
    [
      'plan_tasks',
      {
        issue: 2,
        tasks: [
          { title: 'design', subtasks: [{ title: 'sketch', subtasks: null }] },
          { title: 'build', subtasks: null },
        ],
      },
      '#2\n- design\n  - sketch\n- build',
    ],
    [
      'plan_tasks',
      { issue: 2, tasks: [{ title: '', subtasks: null }] },
      /^invalid arguments: \/tasks\/0\/title: must NOT have fewer than 1 characters$/,
    ],
  ];
  for (const [name, args, expected] of calls) {
    const tool = byName(portable, name);
    if (expected instanceof RegExp) assert.match(await invalidMessage(tool.execute(args, ctx(name))), expected, name);
    else if (typeof expected === 'string') assert.deepEqual(await tool.execute(args, ctx(name)), expected, name);
    else
      assert.deepEqual(
        ((await tool.execute(args, ctx(name))) as { structuredContent?: unknown }).structuredContent,
        expected,
        name,
      );
  }
});

test('compile({ lint }) turns findings into schema-lint issues; the portable profile has none', () => {
  class LimitArgs {
    @IsInt() @Min(1) @Max(10) limit!: number;
  }
  @Tool({ description: 'Count', args: LimitArgs })
  class Count {
    execute() {
      return 'ok';
    }
  }
  assert.throws(
    () => compile([Count], { lint: ['anthropic-strict'] }),
    (error: unknown) => {
      assert.ok(error instanceof ContractError);
      assert.deepEqual(
        error.issues.map((issue) => ({ ...issue })),
        [
          {
            code: 'schema-lint',
            className: '',
            message:
              'tool "count" inputSchema /properties/limit/minimum: [anthropic-strict/numeric-bounds] "minimum" is not supported in strict tool use; fix: compile or serve with schemaProfile: \'portable\' (or --profile portable): the listing moves it into the description and the server still enforces it',
          },
          {
            code: 'schema-lint',
            className: '',
            message:
              'tool "count" inputSchema /properties/limit/maximum: [anthropic-strict/numeric-bounds] "maximum" is not supported in strict tool use; fix: compile or serve with schemaProfile: \'portable\' (or --profile portable): the listing moves it into the description and the server still enforces it',
          },
        ],
      );
      return true;
    },
  );
  assert.equal(
    compile([Count], { schemaProfile: 'portable', lint: ['openai-strict', 'anthropic', 'anthropic-strict', 'mcp'] })
      .length,
    1,
  );
  // lint: true leaves portable's one raw-Gemini rule to the host's adapter; naming gemini checks it.
  assert.equal(compile([Count], { schemaProfile: 'portable', lint: true }).length, 1);
  assert.throws(() => compile([Count], { schemaProfile: 'portable', lint: ['gemini'] }), {
    message:
      /^toolwright: 1 problem in the tool contract:\n  - \[schema-lint\] tool "count" inputSchema \/additionalProperties: \[gemini\/additional-properties\]/,
  });
  assert.equal(compile([Count], { schemaProfile: 'gemini', lint: ['gemini'] }).length, 1);
});

test('a hand-built tool under a profile is validated against its exact schema', async () => {
  const seen: unknown[] = [];
  const handBuilt: ContractTool = {
    name: 'tag',
    description: 'Tag things',
    parameters: {
      type: 'object',
      properties: { tags: { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } } },
      required: ['tags'],
      additionalProperties: false,
    },
    async execute(args) {
      seen.push(args);
      return 'ok';
    },
  };
  const [profiled] = applySchemaProfile([handBuilt], 'portable');
  assert.equal(await profiled!.execute({ tags: [{ key: 'a', value: 'x' }] }, ctx('tag')), 'ok');
  assert.deepEqual(seen, [{ tags: { a: 'x' } }]);
  assert.equal(
    await invalidMessage(profiled!.execute({ tags: [{ key: 'a', value: 'long' }] }, ctx('tag'))),
    'invalid arguments: /tags/a: must NOT have more than 3 characters',
  );
});

test('bad profile options are refused with the known values', () => {
  class Args {
    @IsString() name!: string;
  }
  @Tool({ description: 'Hello', args: Args })
  class Hello {
    execute() {
      return 'hi';
    }
  }
  assert.throws(() => compile([Hello], { schemaProfile: 'openai' as never }), {
    name: 'TypeError',
    message:
      'compile(): "schemaProfile" must be one of exact, portable, openai-strict, gemini, anthropic-strict, got "openai"',
  });
  assert.throws(() => compile([Hello], { recursionDepth: 0 }), {
    name: 'TypeError',
    message: 'compile(): "recursionDepth" must be a whole number from 1 to 16, got 0',
  });
  assert.equal(applySchemaProfile(compile([Hello]), 'exact').length, 1);
});

test('serveHttp({ schemaProfile }) lists the profile and answers calls in its shape', { timeout: 30_000 }, async () => {
  const server = await serveHttp({ name: 'issues', version: '1.0.0' }, exact, {
    host: '127.0.0.1',
    port: 0,
    schemaProfile: 'portable',
    recursionDepth: 2,
  });
  const client = new Client({ name: 'profile-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.inputSchema),
      portable.map((tool) => tool.parameters),
    );
    assert.deepEqual(
      await client.callTool({
        name: 'link_issues',
        arguments: { issue: 5, links: [{ key: 'x', value: { relation: 'relates', issue: 6 } }] },
      }),
      { content: [{ type: 'text', text: 'x: #5 relates #6' }] },
    );
  } finally {
    await client.close();
    await server.close();
  }
});
