import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { createMCPClient } from '@ai-sdk/mcp';
import { MCPServerStreamableHttp, RunContext, getAllMcpTools, setTracingDisabled } from '@openai/agents';
import { generateText, type ToolSet } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createAnthropic } from '@ai-sdk/anthropic';
import type { JsonObject } from '../src/index.js';
import { lintSchema, type LintProvider } from '../src/compiler/index.js';
import { OUT_DIR } from './support/cli-paths.js';
import { serveOverHttp, type ServedOverHttp } from './support/http-serve.js';

// Real agent-framework clients convert and call the issue tracker sample served by
// `toolwright serve --http --profile portable` (a child process on 127.0.0.1, port 0): LangChain's
// MCP adapters, the Vercel AI SDK's MCP client and OpenAI Agents JS with strict schemas. Every
// tool is called with valid and with invalid arguments; the invalid ones must reach the server
// and come back as toolwright's own error text. mcp-use is left out: it sends telemetry.

const ISSUES = join(OUT_DIR, 'samples', 'issues', 'tools.js');

/** Valid and invalid arguments in the portable listing's shape (every property present). */
const CALLS: readonly {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly expect: string | RegExp;
}[] = [
  {
    tool: 'create_issue',
    args: {
      title: 'Crash on save',
      body: null,
      labels: [{ name: 'bug', color: null }],
      priority: 'high',
      assignees: null,
      due: '2026-12-01T10:00:00Z',
      fields: [{ key: 'area', value: 'editor' }],
    },
    expect: /"title":"Crash on save"/,
  },
  {
    tool: 'create_issue',
    args: { title: 'ab', body: null, labels: null, priority: null, assignees: null, due: null, fields: null },
    expect: 'invalid arguments: /title: must NOT have fewer than 3 characters',
  },
  { tool: 'search_issues', args: { query: 'Crash', states: ['open'], limit: 5 }, expect: /"total":\d+/ },
  {
    tool: 'search_issues',
    args: { query: 'Crash', states: null, limit: 500 },
    expect: 'invalid arguments: /limit: must be <= 100',
  },
  { tool: 'add_comment', args: { issue: 'WEB-12', body: 'seen it' }, expect: 'commented on WEB-12: seen it' },
  {
    tool: 'add_comment',
    args: { issue: 7, body: '' },
    expect: 'invalid arguments: /body: must NOT have fewer than 1 characters',
  },
  {
    tool: 'schedule_issue',
    args: { issue: 1, target: { kind: 'sprint', sprint: 4 } },
    expect: '#1 planned for sprint 4',
  },
  {
    tool: 'schedule_issue',
    args: { issue: 1, target: { kind: 'sprint', sprint: 0 } },
    expect: 'invalid arguments: /target/sprint: must be >= 1',
  },
  {
    tool: 'link_issues',
    args: { issue: 3, links: [{ key: 'dup', value: { relation: 'duplicates', issue: 2 } }] },
    expect: 'dup: #3 duplicates #2',
  },
  {
    tool: 'link_issues',
    args: { issue: 3, links: [{ key: 'dup', value: { relation: 'duplicates', issue: 0 } }] },
    expect: 'invalid arguments: /links/dup/issue: must be >= 1',
  },
  {
    tool: 'plan_tasks',
    args: { issue: 2, tasks: [{ title: 'design', subtasks: [{ title: 'sketch', subtasks: null }] }] },
    expect: '#2\n- design\n  - sketch',
  },
  {
    tool: 'plan_tasks',
    args: { issue: 2, tasks: [{ title: '', subtasks: null }] },
    expect: 'invalid arguments: /tasks/0/title: must NOT have fewer than 1 characters',
  },
];

/** The text of what a client returned: a string, a `{ type: 'text', text }` part, or a list of parts. */
function textOf(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(textOf).join('\n');
  if (typeof output === 'object' && output !== null && typeof (output as { text?: unknown }).text === 'string')
    return (output as { text: string }).text;
  return JSON.stringify(output);
}

function check(text: string, expect: string | RegExp, label: string): void {
  if (typeof expect === 'string')
    assert.ok(text.includes(expect), `${label}: expected ${JSON.stringify(expect)} in ${JSON.stringify(text)}`);
  else assert.match(text, expect, label);
}

let served: ServedOverHttp;

before(async () => {
  served = await serveOverHttp(ISSUES, ['--profile', 'portable']);
});

after(async () => {
  await served?.stop();
});

describe('LangChain MCP adapters', { timeout: 60_000 }, () => {
  it('converts every tool and calls each with valid and invalid arguments', async () => {
    const client = new Client({ name: 'langchain-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    try {
      const tools = await loadMcpTools('issues', client, { throwOnLoadError: true });
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'add_comment',
        'create_issue',
        'link_issues',
        'plan_tasks',
        'schedule_issue',
        'search_issues',
      ]);
      for (const call of CALLS) {
        const tool = tools.find((t) => t.name === call.tool)!;
        let text: string;
        try {
          const output: unknown = await tool.invoke(call.args);
          text = typeof output === 'string' ? output : JSON.stringify(output);
        } catch (error) {
          text = String((error as Error).message);
        }
        check(text, call.expect, `langchain ${call.tool}`);
      }
    } finally {
      await client.close();
    }
  });
});

describe('LangChain MCP adapters on the exact listing', { timeout: 60_000 }, () => {
  it('keeps null for optional properties (type lists survive its anyOf simplifier), so the server reads it as left out', async () => {
    const exact = await serveOverHttp(ISSUES);
    const client = new Client({ name: 'langchain-exact', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(exact.url)));
      const tools = await loadMcpTools('issues', client, { throwOnLoadError: true });
      const create = tools.find((t) => t.name === 'create_issue')!;
      const output: unknown = await create.invoke({
        title: 'Null labels',
        body: null,
        labels: null,
        priority: null,
        fields: null,
      });
      check(
        textOf(output),
        /"title":"Null labels","url":"https:\/\/issues\.example\/1","state":"open","labels":\[\]/,
        'langchain exact create_issue',
      );
    } finally {
      await client.close();
      await exact.stop();
    }
  });
});

describe('Vercel AI SDK MCP client', { timeout: 60_000 }, () => {
  it('converts every tool and calls each with valid and invalid arguments', async () => {
    const client = await createMCPClient({ transport: { type: 'http', url: served.url } });
    try {
      const tools = await client.tools();
      assert.deepEqual(Object.keys(tools).sort(), [
        'add_comment',
        'create_issue',
        'link_issues',
        'plan_tasks',
        'schedule_issue',
        'search_issues',
      ]);
      for (const call of CALLS) {
        const tool = tools[call.tool]!;
        const output = (await tool.execute!(call.args, { toolCallId: 'c1', messages: [] })) as {
          content?: { type: string; text?: string }[];
        };
        check((output.content ?? []).map((part) => part.text ?? '').join('\n'), call.expect, `ai-sdk ${call.tool}`);
      }
    } finally {
      await client.close();
    }
  });
});

/**
 * A fetch that records the request body a provider would send and then fails, so the AI SDK's
 * provider converts the tools for real without any request leaving the process.
 */
function capturingFetch(bodies: unknown[]): typeof fetch {
  return async (_url, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    throw new Error('captured');
  };
}

/** Asks `model` for a completion with `tools` and returns the request body its provider built. */
async function requestBody(
  model: Parameters<typeof generateText>[0]['model'],
  tools: ToolSet,
  bodies: unknown[],
): Promise<Record<string, unknown>> {
  await assert.rejects(generateText({ model, tools, prompt: 'hi', maxRetries: 0 }));
  return bodies.pop() as Record<string, unknown>;
}

describe('Vercel AI SDK provider conversions', { timeout: 60_000 }, () => {
  it('OpenAI, Google and Anthropic providers convert every tool to a schema their rules accept', async () => {
    const client = await createMCPClient({ transport: { type: 'http', url: served.url } });
    try {
      const tools = (await client.tools()) as ToolSet;
      const bodies: unknown[] = [];
      const lintAll = (provider: LintProvider, schemas: [string, JsonObject][]): string[] =>
        schemas.flatMap(([tool, schema]) =>
          lintSchema(schema, { tool, role: 'input' }, { providers: [provider] }).map(
            (f) => `${f.tool} ${f.rule} ${f.pointer}`,
          ),
        );

      const openai = await requestBody(
        createOpenAI({ apiKey: 'test', fetch: capturingFetch(bodies) })('gpt-4.1'),
        tools,
        bodies,
      );
      const openaiTools = openai.tools as { name: string; parameters: JsonObject }[];
      assert.equal(openaiTools.length, 6);
      assert.deepEqual(
        lintAll(
          'openai-strict',
          openaiTools.map((t) => [t.name, t.parameters]),
        ),
        [],
      );

      const google = await requestBody(
        createGoogleGenerativeAI({ apiKey: 'test', fetch: capturingFetch(bodies) })('gemini-2.5-flash'),
        tools,
        bodies,
      );
      const declarations = (google.tools as { functionDeclarations: { name: string; parameters: JsonObject }[] }[])[0]!
        .functionDeclarations;
      assert.equal(declarations.length, 6);
      assert.deepEqual(
        lintAll(
          'gemini',
          declarations.map((d) => [d.name, d.parameters]),
        ),
        [],
      );

      const anthropic = await requestBody(
        createAnthropic({ apiKey: 'test', fetch: capturingFetch(bodies) })('claude-sonnet-4-5'),
        tools,
        bodies,
      );
      const anthropicTools = anthropic.tools as { name: string; input_schema: JsonObject }[];
      assert.equal(anthropicTools.length, 6);
      assert.deepEqual(
        lintAll(
          'anthropic',
          anthropicTools.map((t) => [t.name, t.input_schema]),
        ),
        [],
      );
      assert.deepEqual(
        lintAll(
          'anthropic-strict',
          anthropicTools.map((t) => [t.name, t.input_schema]),
        ),
        [],
      );
    } finally {
      await client.close();
    }
  });
});

describe('OpenAI Agents JS', { timeout: 60_000 }, () => {
  it('converts every tool to a strict function tool and calls each with valid and invalid arguments', async () => {
    setTracingDisabled(true);
    const server = new MCPServerStreamableHttp({ url: served.url, name: 'issues', cacheToolsList: false });
    await server.connect();
    try {
      const tools = await getAllMcpTools({
        mcpServers: [server],
        convertSchemasToStrict: true,
        runContext: new RunContext(),
        agent: undefined as never,
      });
      assert.deepEqual(
        tools
          .map((t) => [t.name, (t as { strict?: boolean }).strict] as const)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        [
          ['add_comment', true],
          ['create_issue', true],
          ['link_issues', true],
          ['plan_tasks', true],
          ['schedule_issue', true],
          ['search_issues', true],
        ],
      );
      for (const tool of tools) {
        assert.deepEqual(
          lintSchema(
            (tool as unknown as { parameters: JsonObject }).parameters,
            { tool: tool.name, role: 'input' },
            { providers: ['openai-strict'] },
          ),
          [],
          tool.name,
        );
      }
      for (const call of CALLS) {
        const tool = tools.find((t) => t.name === call.tool) as unknown as {
          invoke(ctx: RunContext, input: string): Promise<unknown>;
        };
        const output = await tool.invoke(new RunContext(), JSON.stringify(call.args));
        check(textOf(output), call.expect, `agents ${call.tool}`);
      }
    } finally {
      await server.close();
    }
  });
});
